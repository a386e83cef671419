import { sql, type SQL } from 'drizzle-orm';
import { bigint, date, integer, numeric, pgTable, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { required } from './columns.js';
import { clientRef, costCenters, operatorRef, subCompanies } from './core.js';
import { costCategories, costElements } from './masters.js';
import { subscriptions } from './invoices.js';

/**
 * Pre-aggregated `monthly_facts` for the dashboards (issue 10), kept by statement triggers on
 * `monthly_facts` (migration 0003): every insert, update and delete of facts adds or subtracts its
 * sums here in the same transaction, so a dashboard reads thousands of rows instead of millions.
 * Nothing writes these tables but the triggers.
 */
const money = (name: string) => numeric(name, { precision: 16, scale: 2 });
const qty = (name: string) => numeric(name, { precision: 18, scale: 2 });

/** Every summary's leading key: client, month and operator; a summary row goes with any of them. */
const monthKey = () => ({
  clientId: clientRef('cascade'),
  month: date('month').notNull(),
  operatorId: operatorRef('cascade'),
});

/** The optional sub-company and cost center of a summary row (0 in its unique key when null). */
const place = () => ({
  subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'cascade' }),
  costCenterId: integer('cost_center_id').references(() => costCenters.id, { onDelete: 'cascade' }),
});

const costCategoryId = () =>
  integer('cost_category_id').references(() => costCategories.id, { onDelete: 'cascade' });

/** The key columns of the per-subscription summaries (the category summary adds its category). */
const subscriptionMonth = () => ({
  ...monthKey(),
  subscriptionId: required('subscription_id', () => subscriptions.id, 'cascade'),
  ...place(),
});

/** Integer cents and how many facts they sum. */
const cents = () => ({
  cents: bigint('cents', { mode: 'number' }).notNull(),
  facts: integer('facts').notNull(),
});

/** The unique key of a per-subscription summary: a null sub-company or cost center counts as 0. */
const subscriptionMonthKey = (
  t: Record<keyof ReturnType<typeof subscriptionMonth>, AnyPgColumn>,
): [AnyPgColumn, ...(AnyPgColumn | SQL)[]] => [
  t.clientId,
  t.month,
  t.operatorId,
  t.subscriptionId,
  sql`coalesce(${t.subCompanyId}, 0)`,
  sql`coalesce(${t.costCenterId}, 0)`,
];

/** Per client, month, operator, sub-company, cost center and cost element (summed over subscriptions). */
export const monthlyCostSummary = pgTable(
  'monthly_cost_summary',
  {
    ...monthKey(),
    ...place(),
    costElementId: required('cost_element_id', () => costElements.id, 'cascade'),
    costCategoryId: costCategoryId(),
    amount: money('amount').notNull(),
    minutes: qty('minutes').notNull(),
    pieces: qty('pieces').notNull(),
    megabytes: qty('megabytes').notNull(),
    facts: integer('facts').notNull(),
  },
  (t) => [
    uniqueIndex('monthly_cost_summary_uq').on(
      t.clientId,
      t.month,
      t.operatorId,
      sql`coalesce(${t.subCompanyId}, 0)`,
      sql`coalesce(${t.costCenterId}, 0)`,
      t.costElementId,
      sql`coalesce(${t.costCategoryId}, 0)`,
    ),
  ],
);

/**
 * Per subscription and month (summed over cost elements): the top users. The cost is kept in integer
 * cents: ranking a large client's subscriptions sums a row per subscription and month, and bigint sums
 * run several times faster than numeric ones (migration 0007; a covering index on client, month and
 * subscription lets the ranking read the index alone).
 */
export const subscriptionMonthCost = pgTable(
  'subscription_month_cost',
  {
    ...subscriptionMonth(),
    ...cents(),
  },
  (t) => [uniqueIndex('subscription_month_cost_uq').on(...subscriptionMonthKey(t))],
);

/**
 * Per subscription, month and cost category, in integer cents: the top users and drill-downs under a
 * usage type or cost category filter (migration 0009), which would otherwise sum the facts themselves.
 * A covering index on client, category and month lets such a ranking read the index alone.
 */
export const subscriptionCategoryMonthCost = pgTable(
  'subscription_category_month_cost',
  {
    ...subscriptionMonth(),
    costCategoryId: costCategoryId(),
    ...cents(),
  },
  (t) => [
    uniqueIndex('subscription_category_month_cost_uq').on(
      ...subscriptionMonthKey(t),
      sql`coalesce(${t.costCategoryId}, 0)`,
    ),
  ],
);

/**
 * A version per client of everything the dashboards show (migration 0010): statement triggers on
 * `monthly_facts`, `subscriptions`, `sub_companies` and `cost_centers` set it from one sequence when
 * a client's rows change; client 0 stands for rows shared by every client (cost categories, cost
 * centers without a client). A dashboard answer is kept in memory under the versions it was computed
 * at (`dashboard-cache.ts`), so any change makes the next request compute afresh, on every instance.
 */
export const dashboardDataVersions = pgTable('dashboard_data_versions', {
  clientId: integer('client_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});
