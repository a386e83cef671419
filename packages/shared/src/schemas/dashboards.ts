import { z } from 'zod';
import { idSchema, listAnswer, namedOrNull, pagedAnswer, pagedSortedBy, searchText } from './primitives.js';
import { USAGE_TYPES } from './masters/resources.js';

/**
 * Dashboards (issue 10). Money travels as decimal strings in euros ("1234.50"), as in the
 * invoices and masters; usage quantities as numbers (minutes, pieces, megabytes; two decimals).
 */

/** Longest period a dashboard covers, in months. */
export const DASHBOARD_MAX_MONTHS = 36;
/** Users listed by cost (the rest are counted in `byUser.total`). */
export const DASHBOARD_TOP_USERS = 10;

/** A billing month, `YYYY-MM`; a wrong one is refused with `invalidMonth`. */
export const monthSchema = z
  .string({ error: (issue) => (issue.input === undefined ? undefined : 'invalidMonth') })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'invalidMonth' });

/** Months from `from` to `to`, both included (0 or less when `to` is before `from`). */
export const monthSpan = (from: string, to: string) => {
  const [fy, fm] = from.split('-').map(Number);
  const [ty, tm] = to.split('-').map(Number);
  return (ty! - fy!) * 12 + (tm! - fm!) + 1;
};

/** The filters every cost-and-usage request takes (the dashboard, its list and its drill-down). */
export const costUsageFiltersSchema = z.object({
  /** Required for provider users (admin, consultant); client users get their own client. */
  clientId: idSchema.optional(),
  /** Without `from` and `to`: the 12 months up to the latest month with costs. Alone, either
   * one makes a 12-month period. */
  from: monthSchema.optional(),
  to: monthSchema.optional(),
  subCompanyId: idSchema.optional(),
  costCenterId: idSchema.optional(),
  costCategoryId: idSchema.optional(),
  costElementId: idSchema.optional(),
  /** Costs of the cost categories of this usage type (voice, SMS, data, monthly fee…). */
  usageType: z.enum(USAGE_TYPES, { error: 'validation' }).optional(),
  /** `true`: only the optimizable costs (`OPTIMIZABLE_USAGE_TYPES`: what a plan change can alter). */
  optimizableOnly: z
    .enum(['true', 'false'], { error: 'validation' })
    .transform((v) => v === 'true')
    .optional(),
});

/**
 * The optimizable costs (issue 12 "only optimizable costs"): the cost categories a plan decides —
 * its monthly fee and the voice, SMS, MMS and data it prices. One-off charges, credits and other
 * costs stay whatever the plan.
 */
export const OPTIMIZABLE_USAGE_TYPES = ['monthly_fee', 'voice', 'sms', 'mms', 'data'] as const;

/** `from` … `to` is 1 to 36 months long: every query over a period, `.refine(periodRule, periodError)`. */
export const periodRule = (q: { from?: string; to?: string }) =>
  !q.from || !q.to || (monthSpan(q.from, q.to) >= 1 && monthSpan(q.from, q.to) <= DASHBOARD_MAX_MONTHS);
export const periodError = { error: 'invalidPeriod', path: ['to'] };

export const costUsageQuerySchema = costUsageFiltersSchema.refine(periodRule, periodError);
export type CostUsageQuery = z.infer<typeof costUsageQuerySchema>;

/** The client and the period (`YYYY-MM`) an answer over a period is of. */
export const clientPeriod = { clientId: z.number().int(), from: z.string(), to: z.string() };

const money = z.string();

/** What was used: voice minutes, messages (SMS) and data (MB); numbers with two decimals. */
export const usedQuantities = { voiceMinutes: z.number(), sms: z.number(), dataMb: z.number() };

/** Usage quantities summed over the facts of the period (or of one month). */
export const usageTotalsSchema = z.object({
  ...usedQuantities,
  /** The part of the above used outside Finland (cost categories of zone Nordic/Baltic, EU, world). */
  roamingVoiceMinutes: z.number(),
  roamingSms: z.number(),
  roamingDataMb: z.number(),
  /** Cost of the roaming categories. */
  roamingCost: money,
});
export type UsageTotals = z.infer<typeof usageTotalsSchema>;

export const costUsageMonthSchema = z.object({
  /** `YYYY-MM`; every month of the period is listed, with zeros when it has no facts. */
  month: z.string(),
  cost: money,
  ...usedQuantities,
  /** The month's cost per cost category (for the stacked trend); categories without cost are left out. */
  byCategory: z.array(z.object({ costCategoryId: z.number().int().nullable(), cost: money })),
});
export type CostUsageMonth = z.infer<typeof costUsageMonthSchema>;

export const costUsageCategorySchema = z.object({
  /** null: cost elements not yet categorized. */
  costCategoryId: z.number().int().nullable(),
  /** In the caller's language; '' for the uncategorized group (the web names it). */
  name: z.string(),
  usageType: z.string().nullable(),
  cost: money,
});
export const costUsageCostCenterSchema = z.object({
  /** null: costs without a cost center (invoice-level lines, unassigned subscriptions). */
  costCenterId: z.number().int().nullable(),
  name: z.string(),
  cost: money,
});
/** A cost element with cost in the slice: the dashboard's cost-element filter offers these. */
export const costUsageCostElementSchema = z.object({
  costElementId: z.number().int(),
  name: z.string(),
  cost: money,
});
export const costUsageCostElementsSchema = z.array(costUsageCostElementSchema);
export type CostUsageCostElement = z.infer<typeof costUsageCostElementSchema>;

export const costUsageSubCompanySchema = z.object({
  subCompanyId: z.number().int().nullable(),
  name: z.string(),
  cost: money,
});
/** A subscription as a row names it: its id, its number and its user (null: none known). */
export const subscriptionOf = {
  subscriptionId: z.number().int(),
  phoneNumber: z.string(),
  userName: z.string().nullable(),
};
/** How a report's row names a subscription: its number, its user, its sub-company and cost center. */
export const subscriptionNamed = {
  ...subscriptionOf,
  subCompanyName: z.string().nullable(),
  costCenterName: z.string().nullable(),
};
export const costUsageUserSchema = z.object({ ...subscriptionNamed, cost: money });

/**
 * The change against the previous period compares like with like: each month of the period that
 * has costs is paired with the month `n` months earlier (`n` = the period's length). The change is
 * given only when every month with costs has a partner month with costs; it then compares those
 * months only (previous months whose partner has no costs yet are left out). Otherwise — the
 * previous period has fewer invoiced months, or the period has no costs — it is null: "no
 * comparable previous period", never a change against a few invoiced months.
 */
export const costUsageComparisonSchema = z.object({
  /** Months compared (months of the period with costs). */
  months: z.number().int(),
  /** Cost of those months (equals `totalCost`). */
  cost: money,
  /** Cost of their partner months in the previous period. */
  previousCost: money,
});
export type CostUsageComparison = z.infer<typeof costUsageComparisonSchema>;

export const costUsageSchema = z.object({
  ...clientPeriod,
  /** The same-length period just before, for the change. */
  previousFrom: z.string(),
  previousTo: z.string(),
  totalCost: money,
  /** All costs of the previous period (for reference; the change uses `comparison`). */
  previousTotalCost: money,
  /** The like-with-like change, or null when there is no comparable previous period. */
  comparison: costUsageComparisonSchema.nullable(),
  usage: usageTotalsSchema,
  months: z.array(costUsageMonthSchema),
  /** Sorted by cost, largest first. */
  byCategory: z.array(costUsageCategorySchema),
  byCostCenter: z.array(costUsageCostCenterSchema),
  bySubCompany: z.array(costUsageSubCompanySchema),
  /** The top users (subscriptions) by cost and how many subscriptions have cost in the period. */
  byUser: listAnswer(costUsageUserSchema),
  /**
   * The invoices with costs in the slice whose own figures show a difference above one cent
   * (issue 38): the period includes an unexplained difference; empty when every invoice reconciles.
   */
  unreconciledInvoices: z.array(
    z.object({
      id: z.number().int(),
      invoiceNumber: z.string().nullable(),
      operatorName: z.string().nullable(),
      /** Signed, euros (stated − computed), the largest of the invoice's differences. */
      difference: money,
    }),
  ),
});
export type CostUsage = z.infer<typeof costUsageSchema>;

// ---- the subscriptions behind the figures: "show all" users and the drill-down ----------------

export const COST_USAGE_SUBSCRIPTION_SORTABLE = [
  'cost',
  'userName',
  'phoneNumber',
  'subCompanyName',
  'costCenterName',
] as const;
export type CostUsageSubscriptionSort = (typeof COST_USAGE_SUBSCRIPTION_SORTABLE)[number];

/**
 * Every subscription with costs under the dashboard's filters, with its cost for the period:
 * "show all" of the top users, and the drill-down of a bar or slice (a month: `from` = `to`; a
 * cost category, cost center or sub-company: its filter). Paged, sorted (default: cost, largest
 * first), searched by phone number or user name.
 */
export const costUsageSubscriptionsQuerySchema = costUsageFiltersSchema
  .extend({
    ...pagedSortedBy(COST_USAGE_SUBSCRIPTION_SORTABLE, 'cost', 'desc'),
    /** Matches the phone number or the user name (contains, case-insensitive). */
    q: searchText.optional(),
  })
  .refine(periodRule, periodError);
export type CostUsageSubscriptionsQuery = z.infer<typeof costUsageSubscriptionsQuerySchema>;

/** Where a row belongs in its client: its sub-company and cost center, by id and name (null: none). */
export const placeInClient = {
  ...namedOrNull('subCompany'),
  ...namedOrNull('costCenter'),
};

/** How a list row names a subscription: its number, its user, and where it belongs in the client. */
export const subscriptionOfRow = {
  ...subscriptionOf,
  ...placeInClient,
};

export const costUsageSubscriptionSchema = z.object({
  ...subscriptionOfRow,
  /** Its cost in the period under the filters. */
  cost: money,
});
export type CostUsageSubscription = z.infer<typeof costUsageSubscriptionSchema>;

/** A page of subscriptions matching (`total`: all pages) and their cost together (all pages). */
export const costUsageSubscriptionListSchema = z.object({
  ...clientPeriod,
  ...pagedAnswer(costUsageSubscriptionSchema, { totalCost: money }).shape,
});
export type CostUsageSubscriptionList = z.infer<typeof costUsageSubscriptionListSchema>;
