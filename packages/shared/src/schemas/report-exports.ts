import { z } from 'zod';
import { idSchema, messageAnswer, named, pagedAnswer, pagingQuery } from './primitives.js';
import { monthSchema, periodError, periodRule } from './dashboards.js';

/**
 * The report archive (spec §9, issue 12): Excel exports made in the background and kept for a
 * number of days. `executive` is listed as coming soon and cannot be scheduled.
 */
export const SCHEDULABLE_EXPORT_KINDS = [
  'costs-usage',
  'optimizable-costs-usage',
  'plan-types',
  'top-users',
  'optimization-users',
] as const;
export const COMING_SOON_EXPORT_KINDS = ['executive'] as const;
export const REPORT_EXPORT_KINDS = [...SCHEDULABLE_EXPORT_KINDS, ...COMING_SOON_EXPORT_KINDS] as const;
export type ReportExportKind = (typeof REPORT_EXPORT_KINDS)[number];
export type SchedulableExportKind = (typeof SCHEDULABLE_EXPORT_KINDS)[number];

export const REPORT_EXPORT_STATUSES = ['scheduled', 'ready', 'failed'] as const;
export type ReportExportStatus = (typeof REPORT_EXPORT_STATUSES)[number];

/** What a user asks for: the archive's kind, the client (provider users) and the month range. */
export const reportExportRequestSchema = z
  .object({
    kind: z.enum(SCHEDULABLE_EXPORT_KINDS),
    clientId: idSchema.optional(),
    subCompanyId: idSchema.optional(),
    from: monthSchema.optional(),
    to: monthSchema.optional(),
  })
  .strict()
  .refine(periodRule, periodError);
export type ReportExportRequest = z.infer<typeof reportExportRequestSchema>;

export const reportExportSchema = z.object({
  id: z.number().int(),
  kind: z.enum(REPORT_EXPORT_KINDS),
  ...named('client'),
  subCompanyId: z.number().int().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  status: z.enum(REPORT_EXPORT_STATUSES),
  /** Failed: the reason, in the caller's language ("try again later"). */
  error: z.string().nullable(),
  rows: z.number().int().nullable(),
  sizeBytes: z.number().int().nullable(),
  fileName: z.string(),
  requestedAt: z.string(),
  /** Ready: when the file was made (the download date). */
  readyAt: z.string().nullable(),
  /** When the file is removed (the configured number of days after it was made). */
  expiresAt: z.string().nullable(),
});
export type ReportExport = z.infer<typeof reportExportSchema>;

export const reportExportListQuerySchema = pagingQuery.extend({
  status: z.enum(REPORT_EXPORT_STATUSES).optional(),
});
export type ReportExportListQuery = z.infer<typeof reportExportListQuerySchema>;

export const reportExportListSchema = pagedAnswer(reportExportSchema).extend({
  /** Days a made file is kept. */
  retentionDays: z.number().int(),
});
export type ReportExportList = z.infer<typeof reportExportListSchema>;

export const reportExportIdParams = z.object({ id: idSchema });

/** The archive's reports by name (spec §9), in both languages: the Downloads screen, file names and mails. */
export const REPORT_EXPORT_LABELS: Record<ReportExportKind, { en: string; fi: string }> = {
  'costs-usage': { en: 'All costs and usage', fi: 'Kaikki kustannukset ja käyttö' },
  'optimizable-costs-usage': {
    en: 'Optimizable costs and usage',
    fi: 'Optimoitavat kustannukset ja käyttö',
  },
  'plan-types': { en: 'Plan types', fi: 'Liittymätyypit' },
  'top-users': { en: 'Top users', fi: 'Suurimmat käyttäjät' },
  'optimization-users': {
    en: 'Optimized, un-optimized and no-usage users',
    fi: 'Optimoidut, optimoimattomat ja käyttämättömät liittymät',
  },
  executive: { en: 'Executive report', fi: 'Johdon raportti' },
};

export const reportExportDeletedSchema = messageAnswer;
