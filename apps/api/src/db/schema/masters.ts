import { sql } from 'drizzle-orm';
import { boolean, integer, numeric, pgTable, serial, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { createdAt, moment, price, required, timestamps } from './columns.js';
import { byUser, clients, files, operatorRef, operators } from './core.js';

/**
 * Master data (spec §2 /admin/master, §3). Operators, cost centers and client billing plans live in
 * core.ts; the rest is here. Names are unique case-insensitively within their scope (operator, client); amounts
 * are `numeric`: monthly prices and fees with 2 decimals, per-use prices with 4.
 */

const unitPrice = (name: string) => numeric(name, { precision: 12, scale: 4 });

export const countries = pgTable(
  'countries',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** ISO 3166-1 alpha-2. */
    code: text('code').notNull(),
    zone: text('zone', { enum: ['domestic', 'nordic_baltic', 'eu', 'world'] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('countries_name_uq').on(sql`lower(${t.name})`),
    uniqueIndex('countries_code_uq').on(t.code),
  ],
);

export const currencies = pgTable(
  'currencies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    abbreviation: text('abbreviation').notNull(),
    symbol: text('symbol').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('currencies_name_uq').on(sql`lower(${t.name})`),
    uniqueIndex('currencies_abbreviation_uq').on(t.abbreviation),
  ],
);

export const costGroups = pgTable(
  'cost_groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Costs of this group make up the subscription's current plan (its monthly fee). */
    isCurrentPlan: boolean('is_current_plan').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cost_groups_name_uq').on(sql`lower(${t.name})`)],
);

export const costCategories = pgTable(
  'cost_categories',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    nameFi: text('name_fi').notNull(),
    /** null: applies to every operator. */
    operatorId: integer('operator_id').references(() => operators.id),
    usageType: text('usage_type', {
      enum: ['monthly_fee', 'voice', 'sms', 'mms', 'data', 'one_off', 'discount', 'other'],
    }).notNull(),
    zone: text('zone', { enum: ['domestic', 'nordic_baltic', 'eu', 'world'] }).notNull(),
    costGroupId: integer('cost_group_id').references(() => costGroups.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('cost_categories_name_uq').on(sql`lower(${t.name})`, sql`coalesce(${t.operatorId}, 0)`),
    index('cost_categories_operator_idx').on(t.operatorId),
  ],
);

/** The invoice line labels, and how each maps to a cost category. */
export const costElements = pgTable(
  'cost_elements',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    operatorId: operatorRef(),
    /**
     * null: the provider's shared list (every client's). A name a company's own upload brought is
     * that company's alone (at most CLIENT_COST_ELEMENTS_MAX of them; issue 37 item 7).
     */
    clientId: integer('client_id').references(() => clients.id),
    costCategoryId: integer('cost_category_id').references(() => costCategories.id),
    status: text('status', { enum: ['uncategorized', 'categorized', 'auto_categorized', 'approved'] })
      .notNull()
      .default('uncategorized'),
    approvedAt: moment('approved_at'),
    approvedBy: byUser('approved_by'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('cost_elements_name_uq').on(
      t.operatorId,
      sql`coalesce(${t.clientId}, 0)`,
      sql`lower(${t.name})`,
    ),
    index('cost_elements_client_idx').on(t.clientId),
    index('cost_elements_category_idx').on(t.costCategoryId),
    index('cost_elements_status_idx').on(t.status),
  ],
);

const planGroupColumns = () => ({
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  operatorId: required('operator_id', () => operators.id),
  planType: text('plan_type', { enum: ['flat_rate', 'pay_per_use', 'data_only', 'm2m'] }).notNull(),
  costCategoryId: integer('cost_category_id').references(() => costCategories.id),
  automaticCategorization: boolean('automatic_categorization').notNull().default(false),
  createdAt: createdAt(),
});

export const planGroups = pgTable('plan_groups', planGroupColumns(), (t) => [
  uniqueIndex('plan_groups_name_uq').on(t.operatorId, sql`lower(${t.name})`),
]);

export const basePlanGroups = pgTable('base_plan_groups', planGroupColumns(), (t) => [
  uniqueIndex('base_plan_groups_name_uq').on(t.operatorId, sql`lower(${t.name})`),
]);

/**
 * Plans (spec §3 "Plan"). General rows are the operator's list catalogue; customer-specific
 * rows (client_id set) carry one client's contract prices and override the general ones.
 */
export const plans = pgTable(
  'plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    operatorId: operatorRef(),
    planType: text('plan_type', { enum: ['flat_rate', 'pay_per_use', 'data_only', 'm2m'] }).notNull(),
    planGroupId: integer('plan_group_id').references(() => planGroups.id),
    basePlanGroupId: integer('base_plan_group_id').references(() => basePlanGroups.id),
    listPrice: price('list_price').notNull(),
    contractPrice: price('contract_price'),
    unlimited: boolean('unlimited').notNull().default(false),
    dataSlabMb: integer('data_slab_mb'),
    dataSpeedMbps: integer('data_speed_mbps'),
    exceedingDataCost: unitPrice('exceeding_data_cost'),
    euDataGb: numeric('eu_data_gb', { precision: 10, scale: 2 }),
    voiceListPrice: unitPrice('voice_list_price'),
    voiceContractPrice: unitPrice('voice_contract_price'),
    smsListPrice: unitPrice('sms_list_price'),
    smsContractPrice: unitPrice('sms_contract_price'),
    packetPlanSize: integer('packet_plan_size'),
    perMinuteCost: unitPrice('per_minute_cost'),
    additionalMinuteCost: unitPrice('additional_minute_cost'),
    smsCost: unitPrice('sms_cost'),
    smsAddonSize: integer('sms_addon_size'),
    dataInNordicBaltic: boolean('data_in_nordic_baltic').notNull().default(false),
    smsInNordicBaltic: boolean('sms_in_nordic_baltic').notNull().default(false),
    voiceInNordicBaltic: boolean('voice_in_nordic_baltic').notNull().default(false),
    dataInEu: boolean('data_in_eu').notNull().default(false),
    smsInEu: boolean('sms_in_eu').notNull().default(false),
    voiceInEu: boolean('voice_in_eu').notNull().default(false),
    coverage: text('coverage', { enum: ['no_limitations', 'domestic_only'] })
      .notNull()
      .default('no_limitations'),
    scope: text('scope', { enum: ['general', 'customer_specific'] })
      .notNull()
      .default('general'),
    clientId: integer('client_id').references(() => clients.id),
    considerForOptimization: boolean('consider_for_optimization').notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('plans_name_uq').on(t.operatorId, sql`lower(${t.name})`, sql`coalesce(${t.clientId}, 0)`),
    index('plans_client_idx').on(t.clientId),
    index('plans_plan_group_idx').on(t.planGroupId),
  ],
);

/** Numbers whose lines an invoice import leaves out; client_id null = for every client. */
export const skippedPhoneNumbers = pgTable(
  'skipped_phone_numbers',
  {
    id: serial('id').primaryKey(),
    phoneNumber: text('phone_number').notNull(),
    clientId: integer('client_id').references(() => clients.id),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('skipped_phone_numbers_uq').on(t.phoneNumber, sql`coalesce(${t.clientId}, 0)`)],
);

/** Help files: one per role, page and language; the content is a row of `files`. */
export const helpFiles = pgTable(
  'help_files',
  {
    id: serial('id').primaryKey(),
    roleId: integer('role_id').notNull(),
    page: text('page').notNull(),
    languageId: integer('language_id').notNull(),
    fileId: required('file_id', () => files.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('help_files_uq').on(t.roleId, t.page, t.languageId)],
);
