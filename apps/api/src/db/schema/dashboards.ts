import { sql } from 'drizzle-orm';
import { bigint, date, integer, numeric, pgTable, uniqueIndex } from 'drizzle-orm/pg-core';
import { clients, costCenters, operators, subCompanies } from './core.js';
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

/** Per client, month, operator, sub-company, cost center and cost element (summed over subscriptions). */
export const monthlyCostSummary = pgTable(
  'monthly_cost_summary',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'cascade' }),
    costCenterId: integer('cost_center_id').references(() => costCenters.id, { onDelete: 'cascade' }),
    costElementId: integer('cost_element_id')
      .notNull()
      .references(() => costElements.id, { onDelete: 'cascade' }),
    costCategoryId: integer('cost_category_id').references(() => costCategories.id, { onDelete: 'cascade' }),
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
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'cascade' }),
    costCenterId: integer('cost_center_id').references(() => costCenters.id, { onDelete: 'cascade' }),
    cents: bigint('cents', { mode: 'number' }).notNull(),
    facts: integer('facts').notNull(),
  },
  (t) => [
    uniqueIndex('subscription_month_cost_uq').on(
      t.clientId,
      t.month,
      t.operatorId,
      t.subscriptionId,
      sql`coalesce(${t.subCompanyId}, 0)`,
      sql`coalesce(${t.costCenterId}, 0)`,
    ),
  ],
);

/**
 * Per subscription, month and cost category, in integer cents: the top users and drill-downs under a
 * usage type or cost category filter (migration 0009), which would otherwise sum the facts themselves.
 * A covering index on client, category and month lets such a ranking read the index alone.
 */
export const subscriptionCategoryMonthCost = pgTable(
  'subscription_category_month_cost',
  {
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    month: date('month').notNull(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id, { onDelete: 'cascade' }),
    costCenterId: integer('cost_center_id').references(() => costCenters.id, { onDelete: 'cascade' }),
    costCategoryId: integer('cost_category_id').references(() => costCategories.id, { onDelete: 'cascade' }),
    cents: bigint('cents', { mode: 'number' }).notNull(),
    facts: integer('facts').notNull(),
  },
  (t) => [
    uniqueIndex('subscription_category_month_cost_uq').on(
      t.clientId,
      t.month,
      t.operatorId,
      t.subscriptionId,
      sql`coalesce(${t.subCompanyId}, 0)`,
      sql`coalesce(${t.costCenterId}, 0)`,
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
