import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, happenedAt, moment, required } from './columns.js';
import { byUser, clientRef, operatorRef } from './core.js';
import { plans } from './masters.js';
import { subscriptions } from './invoices.js';

/**
 * Plan optimization (issue 10). Money in integer cents (the optimizer's unit), converted to euro
 * strings at the API edge. A client's results are replaced as a whole, in one transaction, by the
 * optimize-client job: readers see the previous result or the new one, never a mix.
 */

export const OPTIMIZATION_KINDS = ['optimized', 'unoptimized', 'unused'] as const;
export const OPTIMIZATION_RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export const OPTIMIZATION_TRIGGERS = ['import', 'plans', 'manual', 'settings', 'invoiceDeleted'] as const;

/** One recomputation of a client's results: queued by an import, a plan change or Re-optimize. */
export const optimizationRuns = pgTable(
  'optimization_runs',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef('cascade'),
    status: text('status', { enum: OPTIMIZATION_RUN_STATUSES }).notNull().default('queued'),
    trigger: text('trigger', { enum: OPTIMIZATION_TRIGGERS }).notNull(),
    requestedBy: byUser('requested_by'),
    jobId: text('job_id'),
    /** Subscriptions looked at and findings written (for the status line). */
    subscriptions: integer('subscriptions'),
    findings: integer('findings'),
    error: text('error'),
    createdAt: createdAt(),
    startedAt: moment('started_at'),
    finishedAt: moment('finished_at'),
  },
  (t) => [index('optimization_runs_client_idx').on(t.clientId, t.id)],
);

/**
 * The current finding of every subscription of a client with a known plan: `optimized` (a cheaper
 * plan fits its use), `unoptimized` (it is on the best plan already, or nothing cheaper fits) or
 * `unused` (no use for the client's Unused Month Count months: saving = its whole fee).
 */
export const optimizationResults = pgTable(
  'optimization_results',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef('cascade'),
    runId: required('run_id', () => optimizationRuns.id, 'cascade'),
    subscriptionId: required('subscription_id', () => subscriptions.id, 'cascade'),
    operatorId: operatorRef(),
    kind: text('kind', { enum: OPTIMIZATION_KINDS }).notNull(),
    currentPlanId: integer('current_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    bestPlanId: integer('best_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    currentMonthlyCents: integer('current_monthly_cents').notNull(),
    bestMonthlyCents: integer('best_monthly_cents').notNull(),
    monthlySavingCents: integer('monthly_saving_cents').notNull(),
    /** The optimizer's reason code and its figures; rendered in the reader's language. */
    reasonCode: text('reason_code').notNull(),
    reasonParams: jsonb('reason_params').$type<Record<string, number | string>>().notNull(),
    /** Months of use the finding is based on. */
    monthsUsed: integer('months_used').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('optimization_results_subscription_uq').on(t.subscriptionId),
    index('optimization_results_client_kind_idx').on(t.clientId, t.kind, t.monthlySavingCents),
  ],
);

export const OPTIMIZATION_MARK_STATUSES = ['open', 'realised'] as const;

/**
 * A recommendation accepted with *Mark for optimization*: tracked until an invoice shows the
 * subscription on the recommended plan (then `realised`, from that billing month on).
 */
export const optimizationMarks = pgTable(
  'optimization_marks',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef('cascade'),
    subscriptionId: required('subscription_id', () => subscriptions.id, 'cascade'),
    /** `optimized` (plan change) or `unused` (termination: realised when invoices stop showing it). */
    kind: text('kind', { enum: ['optimized', 'unused'] }).notNull(),
    fromPlanId: integer('from_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    toPlanId: integer('to_plan_id').references(() => plans.id, { onDelete: 'set null' }),
    monthlySavingCents: integer('monthly_saving_cents').notNull(),
    status: text('status', { enum: OPTIMIZATION_MARK_STATUSES }).notNull().default('open'),
    markedBy: byUser('marked_by'),
    markedAt: happenedAt('marked_at'),
    /** First billing month the change shows on an invoice. */
    realisedMonth: date('realised_month'),
    realisedAt: moment('realised_at'),
    /** Cancelled marks are kept for the record but count nowhere. */
    cancelled: boolean('cancelled').notNull().default(false),
  },
  (t) => [
    uniqueIndex('optimization_marks_open_uq')
      .on(t.subscriptionId)
      .where(sql`${t.status} = 'open' and not ${t.cancelled}`),
    index('optimization_marks_client_idx').on(t.clientId, t.status),
  ],
);
