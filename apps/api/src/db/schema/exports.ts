import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { REPORT_EXPORT_KINDS, REPORT_EXPORT_STATUSES } from '@kulu/shared';
import { bytea, clientRef, subCompanies, users } from './core.js';
import { createdAt, moment, required } from './columns.js';

/**
 * The report archive (issue 12): one row per scheduled Excel export. `scheduled` until the
 * build-report-export job has made the file, then `ready` (its parts below) or `failed`. The parameters
 * are kept as asked; the rows are read through the requesting user's Scope when the job runs.
 */
export const reportExports = pgTable(
  'report_exports',
  {
    id: serial('id').primaryKey(),
    userId: required('user_id', () => users.id, 'cascade'),
    clientId: clientRef('cascade'),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REPORT_EXPORT_KINDS }).notNull(),
    /** `YYYY-MM`, as resolved when scheduled. */
    fromMonth: text('from_month'),
    toMonth: text('to_month'),
    /** The operator chosen at the request's login, so the job sees what the user saw. */
    operatorId: integer('operator_id'),
    lang: text('lang', { enum: ['en', 'fi'] }).notNull(),
    status: text('status', { enum: REPORT_EXPORT_STATUSES }).notNull().default('scheduled'),
    errorCode: text('error_code'),
    rowCount: integer('row_count'),
    sizeBytes: integer('size_bytes'),
    /** The job's own bookkeeping: extra parameters for later kinds. */
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    readyAt: moment('ready_at'),
    expiresAt: moment('expires_at'),
  },
  (t) => [
    index('report_exports_user_idx').on(t.userId, t.createdAt),
    index('report_exports_expires_idx').on(t.expiresAt),
    check('report_exports_ready_ck', sql`${t.status} <> 'ready' or ${t.readyAt} is not null`),
  ],
);

/** A made workbook in parts of up to 1 MB, so neither the job nor a download holds it whole. */
export const reportExportParts = pgTable(
  'report_export_parts',
  {
    exportId: required('export_id', () => reportExports.id, 'cascade'),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.seq] })],
);
