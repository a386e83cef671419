import { z } from 'zod';
import { clientPeriod, monthSchema, periodError, periodRule, subscriptionOfRow } from './dashboards.js';
import { idSchema, intIn, listAnswer, pagingQuery, sortQuery, text } from './primitives.js';

/**
 * Plan optimization and savings (issue 10). Money travels as decimal strings in euros ("12.90"),
 * as everywhere in the API; the database keeps integer cents.
 *
 * Tabs (docs/decisions/0006-optimization.md):
 * - `optimized`: a cheaper plan fits the subscription's use: the recommendations, markable.
 * - `unoptimized`: no cheaper plan fits (already on the best plan) — listed for completeness.
 * - `unused`: no voice, SMS or data for the client's Unused Month Count months: saving = the fee.
 */
export const OPTIMIZATION_TABS = ['optimized', 'unoptimized', 'unused'] as const;
export type OptimizationTab = (typeof OPTIMIZATION_TABS)[number];

export const OPTIMIZATION_SORTS = [
  'userName',
  'phoneNumber',
  'subCompany',
  'costCenter',
  'currentPlan',
  'bestPlan',
  'currentMonthlyCost',
  'bestMonthlyCost',
  'monthlySaving',
] as const;

/** Most subscriptions one mark request may carry. */
export const MARK_MAX = 500;

/** A euro amount ≥ 0 with at most two decimals, from a number or a string ("5", "5.5", "5,50"). */
export const euroAmountSchema = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim().replace(',', '.') : v),
  z.coerce
    .number({ error: 'invalidAmount' })
    .min(0, { error: 'invalidAmount' })
    .max(1_000_000, { error: 'invalidAmount' })
    .refine((n) => Number.isFinite(n) && Math.round(n * 100) === Number((n * 100).toFixed(6)), {
      error: 'invalidAmount',
    }),
);

export const optimizationListQuerySchema = z
  .object({
    /** Required for provider users (admin, consultant); client users get their own client. */
    clientId: idSchema.optional(),
    tab: z.enum(OPTIMIZATION_TABS, { error: 'invalidTab' }).default('optimized'),
    /** Only findings saving at least this much a month, euros. */
    savingLimit: euroAmountSchema.optional(),
    /** Matches user name, phone number, current or best plan (case-insensitive, contains). */
    search: text({ max: 100 }).optional(),
    subCompanyId: idSchema.optional(),
    costCenterId: idSchema.optional(),
  })
  .extend(pagingQuery.shape)
  .extend(sortQuery(OPTIMIZATION_SORTS).shape);
export type OptimizationListQuery = z.infer<typeof optimizationListQuerySchema>;

/** The export takes the list's filters and sort (every matching row, no paging). */
export const optimizationExportQuerySchema = optimizationListQuerySchema.omit({ page: true, pageSize: true });
export type OptimizationExportQuery = z.infer<typeof optimizationExportQuerySchema>;

const money = z.string();

export const markStateSchema = z.object({
  status: z.enum(['open', 'realised']),
  markedAt: z.string(),
  /** `YYYY-MM`: the first billing month the change showed on an invoice. */
  realisedMonth: z.string().nullable(),
});

export const optimizationItemSchema = z.object({
  ...subscriptionOfRow,
  operatorId: z.number().int(),
  currentPlanId: z.number().int().nullable(),
  currentPlan: z.string().nullable(),
  currentMonthlyCost: money,
  bestPlanId: z.number().int().nullable(),
  bestPlan: z.string().nullable(),
  bestMonthlyCost: money,
  monthlySaving: money,
  yearlySaving: money,
  /** In the caller's language ("Uses 0.8 GB a month on a 1000M plan; 50M covers it."). */
  reason: z.string(),
  /** Set once the recommendation was marked for optimization. */
  mark: markStateSchema.nullable(),
});
export type OptimizationItem = z.infer<typeof optimizationItemSchema>;

export const optimizationRunSchema = z.object({
  id: z.number().int(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  trigger: z.enum(['import', 'plans', 'manual', 'settings', 'invoiceDeleted']),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type OptimizationRun = z.infer<typeof optimizationRunSchema>;

export const optimizationListSchema = listAnswer(optimizationItemSchema, {
  /** Over every row matching the filters (not only the page). */
  totals: z.object({
    currentMonthlyCost: money,
    bestMonthlyCost: money,
    monthlySaving: money,
    yearlySaving: money,
  }),
  /** Count per tab under the same client, operator and sub-company / cost-center filters. */
  counts: z.object({ optimized: z.number().int(), unoptimized: z.number().int(), unused: z.number().int() }),
  /** The latest run of the client (null: never optimized); the list shows the latest succeeded one. */
  lastRun: optimizationRunSchema.nullable(),
});
export type OptimizationList = z.infer<typeof optimizationListSchema>;

export const reoptimizeBodySchema = z.object({ clientId: idSchema.optional() });
export const reoptimizeResultSchema = z.object({ runId: z.number().int(), jobId: z.string().nullable() });

export const markBodySchema = z.object({
  clientId: idSchema.optional(),
  subscriptionIds: z.array(idSchema).min(1, { error: 'markNothing' }).max(MARK_MAX, { error: 'markTooMany' }),
});
export type MarkBody = z.infer<typeof markBodySchema>;
export const markResultSchema = z.object({
  /** Newly marked. */
  marked: z.number().int(),
  /** Already marked before (left as they were). */
  alreadyMarked: z.number().int(),
});

/** POST /api/optimization/unmark (the mark's body): open marks taken back. */
export const unmarkResultSchema = z.object({
  /** Marks taken back: the findings are open recommendations again. */
  unmarked: z.number().int(),
  /** Without an open mark (never marked, or already realised), left as they were. */
  notMarked: z.number().int(),
});

/** Savings dashboard. */
export const savingsQuerySchema = z
  .object({
    clientId: idSchema.optional(),
    from: monthSchema.optional(),
    to: monthSchema.optional(),
    subCompanyId: idSchema.optional(),
  })
  .refine(periodRule, periodError);
export type SavingsQuery = z.infer<typeof savingsQuerySchema>;

export const savingsSchema = z.object({
  ...clientPeriod,
  potential: z.object({
    /** Open recommendations (optimized, not yet realised) + unused subscriptions, a month. */
    monthly: money,
    yearly: money,
    optimizedMonthly: money,
    unusedMonthly: money,
    optimizedCount: z.number().int(),
    unusedCount: z.number().int(),
    /** Of the above, already marked and waiting for an invoice to confirm. */
    markedMonthly: money,
    markedCount: z.number().int(),
  }),
  realised: z.object({
    /** Realised savings in the period (each realised mark counts its monthly saving from its month on). */
    total: money,
    count: z.number().int(),
    byMonth: z.array(z.object({ month: z.string(), saving: money })),
  }),
  bySubCompany: z.array(
    z.object({
      subCompanyId: z.number().int().nullable(),
      name: z.string(),
      potentialMonthly: money,
      realised: money,
    }),
  ),
  lastRun: optimizationRunSchema.nullable(),
});
export type Savings = z.infer<typeof savingsSchema>;

/** Client settings the optimizer reads (months it sizes on, Unused Month Count). */
export const optimizationSettingsSchema = z.object({
  optimizationMonths: intIn(1, 24),
  unusedMonthCount: intIn(1, 24),
});
export type OptimizationSettings = z.infer<typeof optimizationSettingsSchema>;

/** `GET /api/optimization/settings?clientId=` (provider users name the client). */
export const optimizationSettingsQuerySchema = z.object({ clientId: idSchema.optional() });
/** `PUT /api/optimization/settings`: the settings and, for provider users, the client. */
export const optimizationSettingsBodySchema = optimizationSettingsSchema.extend({
  clientId: idSchema.optional(),
});
export type OptimizationSettingsBody = z.infer<typeof optimizationSettingsBodySchema>;
/** The settings as the API answers them (plain numbers: the request schema parses strings too). */
export const optimizationSettingsResultSchema = z.object({
  optimizationMonths: z.number().int(),
  unusedMonthCount: z.number().int(),
});
