import { z } from 'zod';
import type { Lang } from '../messages.js';
import { dayString } from './clients.js';
import { optionSchema } from './masters/common.js';
import {
  clientPeriod,
  costUsageFiltersSchema,
  costUsageSubscriptionSchema,
  monthSchema,
  periodError,
  periodRule,
  subscriptionNamed,
  subscriptionOf,
  usedQuantities,
} from './dashboards.js';
import {
  idSchema,
  listAnswer,
  listQuery,
  named,
  namedOrNull,
  pagedAnswer,
  pagingQuery,
  searchText,
  sortQuery,
} from './primitives.js';

/**
 * Reports (issue 12). Each report is a GET under `/api/reports/...` answering
 * `{ items, total, totals, page, pageSize }`, and the same path with `/export` the workbook of
 * exactly what the filters show.
 */

// ---- activity log (admin) ---------------------------------------------------------------------------

/** The parts of the product an activity log entry names (`area`), in words (issue 37 item 19). */
export const ACTIVITY_AREA_LABELS = {
  billing: { en: 'Billing', fi: 'Laskutus' },
  clientMasters: { en: 'Client masters', fi: 'Asiakkaan perustiedot' },
  clients: { en: 'Clients', fi: 'Asiakkaat' },
  contracts: { en: 'Contracts', fi: 'Sopimukset' },
  invoices: { en: 'Invoices', fi: 'Laskut' },
  masters: { en: 'Masters', fi: 'Perustiedot' },
  operatorContracts: { en: 'Operator contracts', fi: 'Operaattorisopimukset' },
  payments: { en: 'Payments', fi: 'Maksut' },
  support: { en: 'On-demand support', fi: 'Tukitunnit' },
  users: { en: 'Users', fi: 'Käyttäjät' },
} as const satisfies Record<string, Record<Lang, string>>;
export type ActivityArea = keyof typeof ACTIVITY_AREA_LABELS;

/**
 * What an activity log entry did (`action`), in words: the API writes only these (lib/activity-log.ts
 * takes an `ActivityAction`), so none shows as a raw code (issue 37 item 19).
 */
export const ACTIVITY_ACTION_LABELS = {
  create: { en: 'Created', fi: 'Lisätty' },
  update: { en: 'Updated', fi: 'Päivitetty' },
  delete: { en: 'Deleted', fi: 'Poistettu' },
  convert: { en: 'Converted', fi: 'Muunnettu' },
  assign: { en: 'Assigned', fi: 'Osoitettu' },
  terminate: { en: 'Terminated', fi: 'Päätetty' },
  activate: { en: 'Activated', fi: 'Otettu käyttöön' },
  deactivate: { en: 'Deactivated', fi: 'Poistettu käytöstä' },
  import: { en: 'Imported', fi: 'Tuotu' },
  upload: { en: 'Uploaded', fi: 'Ladattu' },
  deny: { en: 'Denied', fi: 'Estetty' },
  confirm_buyer: { en: 'Buyer confirmed', fi: 'Ostaja vahvistettu' },
  read_again: { en: 'Read again', fi: 'Luettu uudelleen' },
} as const satisfies Record<string, Record<Lang, string>>;
export type ActivityAction = keyof typeof ACTIVITY_ACTION_LABELS;

/** The kinds of row an entry is about (`entity`), in words; a master's kind is its master's key. */
export const ACTIVITY_ENTITY_LABELS: Record<string, Record<Lang, string>> = {
  client: { en: 'Client', fi: 'Asiakas' },
  assignedCompanies: { en: 'Assigned companies', fi: 'Osoitetut yritykset' },
  subCompany: { en: 'Sub-company', fi: 'Tytäryhtiö' },
  contract: { en: 'Contract', fi: 'Sopimus' },
  clientBilling: { en: 'Billing details', fi: 'Laskutustiedot' },
  payment: { en: 'Payment', fi: 'Maksu' },
  supportHours: { en: 'Support hours', fi: 'Tukitunnit' },
  clientUser: { en: 'User', fi: 'Käyttäjä' },
  providerUser: { en: 'Provider user', fi: 'Palveluntarjoajan käyttäjä' },
  invoice: { en: 'Invoice', fi: 'Lasku' },
  invoiceUser: { en: 'Invoice user', fi: 'Laskun käyttäjä' },
  subscription: { en: 'Subscription', fi: 'Liittymä' },
  planDetail: { en: 'Plan details', fi: 'Liittymätyypin tiedot' },
  operatorContract: { en: 'Operator contract', fi: 'Operaattorisopimus' },
  operatorDocument: { en: 'Operator contract document', fi: 'Operaattorisopimuksen asiakirja' },
};

/** An area's or action's words in `lang`; a code without them (an older entry) as it is. */
export const activityLabel = (
  labels: Record<string, Record<Lang, string>>,
  code: string,
  lang: Lang,
): string => (Object.hasOwn(labels, code) ? labels[code]![lang] : code);

export const ACTIVITY_LOG_SORTABLE = ['at', 'user', 'client', 'area', 'action'] as const;
export type ActivityLogSortKey = (typeof ACTIVITY_LOG_SORTABLE)[number];

/** Filters: who, which client, which area, which days (both included). */
export const activityLogQuerySchema = pagingQuery
  .extend({
    ...sortQuery(ACTIVITY_LOG_SORTABLE).shape,
    userId: idSchema.optional(),
    clientId: idSchema.optional(),
    area: z
      .string()
      .regex(/^[A-Za-z][A-Za-z-]{0,39}$/, { error: 'validation' })
      .optional(),
    from: dayString.optional(),
    to: dayString.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { path: ['to'], error: 'invalidPeriod' });
export type ActivityLogQuery = z.infer<typeof activityLogQuerySchema>;

export const activityLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  userId: z.number().int().nullable(),
  /** The user's name (null: the system, a job). */
  userName: z.string().nullable(),
  userEmail: z.string().nullable(),
  ...namedOrNull('client'),
  area: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.number().int().nullable(),
  /** The thing in words (a person's name and email, a contract's client and period, …); null: none known. */
  entityLabel: z.string().nullable(),
  /** The row before and after, without its technical fields (ids, created / updated times). */
  before: z.unknown(),
  after: z.unknown(),
});
export type ActivityLogEntry = z.infer<typeof activityLogEntrySchema>;

export const activityLogListSchema = pagedAnswer(activityLogEntrySchema, {
  totals: z.object({
    /** Entries matching the filters. */
    entries: z.number().int(),
    /** Different users among them. */
    users: z.number().int(),
    /** Different clients among them. */
    clients: z.number().int(),
  }),
});
export type ActivityLogList = z.infer<typeof activityLogListSchema>;

/** The filters' choices: users and clients that have entries, and the areas. */
export const activityLogOptionsSchema = z.object({
  users: z.array(z.object({ id: z.number().int(), name: z.string(), email: z.string() })),
  clients: z.array(optionSchema),
  areas: z.array(z.string()),
});
export type ActivityLogOptions = z.infer<typeof activityLogOptionsSchema>;

/**
 * The money totals of a report that lists subscriptions: the total cost of its filters (every
 * invoice line of the period, the same figure as the dashboard's and the cost summaries') and the
 * part of it no subscription carries, the invoice-level charges (e.g. a paper-invoice fee).
 */
export const reportCostTotalsSchema = z.object({ cost: z.string(), invoiceLevelCost: z.string() });
export type ReportCostTotals = z.infer<typeof reportCostTotalsSchema>;
/** The money totals and how many subscriptions (Top Users, Base Plan Types). */
const subscriptionCostTotalsSchema = reportCostTotalsSchema.extend({ subscriptions: z.number().int() });

/**
 * The row an export by subscription or plan ends with when the period has invoice-level charges,
 * so that its cost column adds up to the total cost the screen shows.
 */
export const INVOICE_LEVEL_ROW: Record<Lang, string> = {
  en: 'Invoice-level charges',
  fi: 'Laskutason veloitukset',
};

// ---- top users --------------------------------------------------------------------------------------

/**
 * Top Users: the subscriptions of a client by cost over a period (the dashboard's filters), most
 * expensive first; `optimizableOnly=true` counts only the costs a plan decides.
 */
export const topUsersQuerySchema = costUsageFiltersSchema
  .extend({
    ...pagingQuery.shape,
    /** Matches the phone number or the user name (contains, case-insensitive). */
    q: searchText.optional(),
  })
  .refine(periodRule, periodError);
export type TopUsersQuery = z.infer<typeof topUsersQuerySchema>;

export const topUserSchema = costUsageSubscriptionSchema.extend({
  /** 1 for the most expensive of the client under the filters (ties by subscription). */
  rank: z.number().int(),
});
export type TopUser = z.infer<typeof topUserSchema>;

export const topUsersListSchema = z.object({
  ...clientPeriod,
  ...pagedAnswer(topUserSchema, { totals: subscriptionCostTotalsSchema }).shape,
});
export type TopUsersList = z.infer<typeof topUsersListSchema>;

// ---- unused subscriptions (Unused-Month-Count) -------------------------------------------------------

/** How many months without use make a subscription unused (the report's choice; the client's setting by default). */
export const UNUSED_MONTHS_MAX = 24;

/**
 * Unused Subscriptions: subscriptions billed in each of the last N months with costs and used in
 * none of them (no voice minutes, messages or data), with what they cost meanwhile.
 */
/** Unused Subscriptions sorts by cost (default, most first), user, phone number or plan. */
export const UNUSED_SORTABLE = ['cost', 'userName', 'phoneNumber', 'planName'] as const;

export const unusedSubscriptionsQuerySchema = listQuery(UNUSED_SORTABLE, {
  clientId: idSchema.optional(),
  subCompanyId: idSchema.optional(),
  costCenterId: idSchema.optional(),
  /** N; without it the client's Unused Month Count. */
  months: z.coerce
    .number({ error: 'validation' })
    .int({ error: 'validation' })
    .min(1, { error: 'validation' })
    .max(UNUSED_MONTHS_MAX, { error: 'validation' })
    .optional(),
  /** The window's last month (`YYYY-MM`, issue 37 item 19); without it the latest month with costs. */
  to: monthSchema.optional(),
  q: searchText.optional(),
});
export type UnusedSubscriptionsQuery = z.infer<typeof unusedSubscriptionsQuerySchema>;

export const unusedSubscriptionSchema = z.object({
  ...subscriptionNamed,
  planName: z.string().nullable(),
  /** What it cost over the N months, and a month on average (euros). */
  cost: z.string(),
  monthlyCost: z.string(),
});
export type UnusedSubscription = z.infer<typeof unusedSubscriptionSchema>;

export const unusedSubscriptionsListSchema = z.object({
  clientId: z.number().int(),
  /** N, and the months it covers (`YYYY-MM`; null when the client has no costs yet). */
  months: z.number().int(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  ...pagedAnswer(unusedSubscriptionSchema, {
    totals: z.object({
      subscriptions: z.number().int(),
      cost: z.string(),
      /** Their monthly cost together × 12: what closing them would save in a year. */
      yearlySaving: z.string(),
    }),
  }).shape,
});
export type UnusedSubscriptionsList = z.infer<typeof unusedSubscriptionsListSchema>;

// ---- client contracts (admin) -----------------------------------------------------------------------

/** Active: contracts in force (status active); inactive: ended early or terminated. Drafts are not contracts yet. */
export const CONTRACT_REPORT_STATES = ['active', 'inactive'] as const;
export const CLIENT_CONTRACT_SORTABLE = [
  'clientName',
  'startDate',
  'endDate',
  'status',
  'monthlyCost',
] as const;

export const clientContractsQuerySchema = listQuery(CLIENT_CONTRACT_SORTABLE, {
  state: z.enum(CONTRACT_REPORT_STATES, { error: 'validation' }).optional(),
  clientId: idSchema.optional(),
  /** Company name or business id (contains, case-insensitive). */
  q: searchText.optional(),
});
export type ClientContractsQuery = z.infer<typeof clientContractsQuerySchema>;

export const clientContractRowSchema = z.object({
  contractId: z.number().int(),
  ...named('client'),
  businessId: z.string(),
  status: z.string(),
  term: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  /** When it stopped early: its inactive or termination date. */
  endedOn: z.string().nullable(),
  billingPlanName: z.string().nullable(),
  billingCycle: z.string(),
  numberOfPlans: z.number().int(),
  units: z.number().int(),
  monthlyCost: z.string().nullable(),
  yearlyCost: z.string().nullable(),
});
export type ClientContractRow = z.infer<typeof clientContractRowSchema>;

export const clientContractsListSchema = pagedAnswer(clientContractRowSchema, {
  totals: z.object({
    contracts: z.number().int(),
    numberOfPlans: z.number().int(),
    monthlyCost: z.string(),
    yearlyCost: z.string(),
  }),
});
export type ClientContractsList = z.infer<typeof clientContractsListSchema>;

// ---- base plan types ---------------------------------------------------------------------------------

/** Base Plan Types: the client's subscriptions and their cost per base plan group and plan group. */
export const planTypesQuerySchema = costUsageFiltersSchema
  .pick({ clientId: true, from: true, to: true, subCompanyId: true, costCenterId: true })
  .refine(periodRule, periodError);
export type PlanTypesQuery = z.infer<typeof planTypesQuerySchema>;

export const planTypeRowSchema = z.object({
  ...namedOrNull('basePlanGroup'),
  ...namedOrNull('planGroup'),
  /** Subscriptions (on a plan of the group now) with costs in the period, and their cost. */
  subscriptions: z.number().int(),
  cost: z.string(),
});
export type PlanTypeRow = z.infer<typeof planTypeRowSchema>;

export const planTypesListSchema = z.object({
  ...clientPeriod,
  ...listAnswer(planTypeRowSchema, { totals: subscriptionCostTotalsSchema }).shape,
});
export type PlanTypesList = z.infer<typeof planTypesListSchema>;

// ---- optimizable cost and usage summaries ---------------------------------------------------------

export const SUMMARY_GROUPINGS = ['organization', 'costCenter'] as const;

/** Cost / Usage Summaries: for the entire organization or by cost center, over a month range. */
export const summaryQuerySchema = costUsageFiltersSchema
  .pick({ clientId: true, from: true, to: true, subCompanyId: true })
  .extend({ groupBy: z.enum(SUMMARY_GROUPINGS, { error: 'validation' }).default('organization') })
  .refine(periodRule, periodError);
export type SummaryQuery = z.infer<typeof summaryQuerySchema>;

/**
 * The answer of a summary of `figures`: rows of the organization (`costCenterId` null and `name` null)
 * or of a cost center (null name: none), with the same figures over all rows as its totals.
 */
function summaryOf<F extends z.ZodRawShape>(figures: F) {
  const row = z.object({
    costCenterId: z.number().int().nullable(),
    name: z.string().nullable(),
    ...figures,
  });
  return z.object({ ...clientPeriod, ...listAnswer(row, { totals: z.object(figures) }).shape });
}

export const costSummaryListSchema = summaryOf({
  /** Costs a plan decides (`OPTIMIZABLE_USAGE_TYPES`), the rest, and both (euros). */
  optimizableCost: z.string(),
  otherCost: z.string(),
  totalCost: z.string(),
});
export type CostSummaryList = z.infer<typeof costSummaryListSchema>;
export type CostSummaryRow = CostSummaryList['items'][number];

export const usageSummaryListSchema = summaryOf({
  /** Domestic and roaming use (roaming: cost categories of zones outside Finland). */
  ...usedQuantities,
  roamingVoiceMinutes: z.number(),
  roamingDataMb: z.number(),
  /** What the use cost (optimizable costs other than monthly fees). */
  usageCost: z.string(),
});
export type UsageSummaryList = z.infer<typeof usageSummaryListSchema>;
export type UsageSummaryRow = UsageSummaryList['items'][number];

// ---- overcharged plans (invoice audit) ----------------------------------------------------------------

/** Overcharged Plans: subscription-months whose monthly fees were billed above the plan's price. */
/** Overcharged Plans sorts by difference (default, largest first), month, user, phone number or plan. */
export const OVERCHARGED_SORTABLE = ['difference', 'month', 'userName', 'phoneNumber', 'planName'] as const;

export const overchargedQuerySchema = costUsageFiltersSchema
  .pick({ clientId: true, from: true, to: true, subCompanyId: true, costCenterId: true })
  .extend({ ...pagingQuery.shape, ...sortQuery(OVERCHARGED_SORTABLE).shape, q: searchText.optional() })
  .refine(periodRule, periodError);
export type OverchargedQuery = z.infer<typeof overchargedQuerySchema>;

export const overchargedRowSchema = z.object({
  ...subscriptionOf,
  month: z.string(),
  planName: z.string(),
  /** The plan's price for the client (its contract price, else the list price), what the invoice billed as monthly fees, and the difference (euros). */
  expected: z.string(),
  billed: z.string(),
  difference: z.string(),
});
export type OverchargedRow = z.infer<typeof overchargedRowSchema>;

export const overchargedListSchema = z.object({
  ...clientPeriod,
  ...pagedAnswer(overchargedRowSchema, {
    totals: z.object({
      lines: z.number().int(),
      expected: z.string(),
      billed: z.string(),
      overcharge: z.string(),
    }),
  }).shape,
});
export type OverchargedList = z.infer<typeof overchargedListSchema>;
