import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
  index,
  numeric,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { ALERT_DIGESTS } from '@kulu/shared';
import { createdAt, moment, price, required, timestamps, updatedAt } from './columns.js';

/** The client a row belongs to: `client_id not null references clients`. */
export function clientRef(onDelete?: 'cascade') {
  return required('client_id', () => clients.id, onDelete);
}

/** The operator a row is about: `operator_id not null references operators`. */
export function operatorRef(onDelete?: 'cascade') {
  return required('operator_id', () => operators.id, onDelete);
}

/** Who did something (created, uploaded, approved, …): kept as null when the user is deleted. */
export function byUser(name: string) {
  return integer(name).references(() => users.id, { onDelete: 'set null' });
}

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const operators = pgTable('operators', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  createdAt: createdAt(),
});

export const clients = pgTable(
  'clients',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: ['company', 'consultant'] }).notNull(),
    companyName: text('company_name').notNull(),
    businessId: text('business_id').notNull(),
    /** The provider's own account number of the client (spec §3 "provider account id"); unique when set. */
    providerAccountId: text('provider_account_id'),
    address: text('address'),
    country: text('country'),
    /** The client's (main) operator; its portal sign-in is the automation's credentials (portal_credentials). */
    operatorId: integer('operator_id').references((): AnyPgColumn => operators.id),
    adminName: text('admin_name'),
    contactNumber: text('contact_number'),
    email: text('email').notNull(),
    profileStatus: text('profile_status', { enum: ['active', 'terminated'] })
      .notNull()
      .default('active'),
    leadStatus: text('lead_status', { enum: ['hot', 'cold', 'lost'] }),
    /** The provider's follow-up day of a lead: shown on the list and mailed on the day (lead-reminder job). */
    reminderDate: date('reminder_date'),
    /** Sign-ups start as interested clients; the provider converts them (spec §4). */
    interestStatus: text('interest_status', { enum: ['not_converted', 'lead', 'company', 'consultant'] })
      .notNull()
      .default('not_converted'),
    /** When the provider converted the interested client (or added it as a customer). */
    convertedAt: moment('converted_at'),
    /** The billing plan the client is sold on (billing management); contracts carry their own copy. */
    billingPlanId: integer('billing_plan_id').references((): AnyPgColumn => clientBillingPlans.id),
    invoiceUploadMethod: text('invoice_upload_method', { enum: ['manual', 'automation'] })
      .notNull()
      .default('manual'),
    logoFileId: integer('logo_file_id'),
    /** How many of the latest billing months the optimizer sizes plans on (issue 10). */
    optimizationMonths: integer('optimization_months').notNull().default(6),
    /** Months without any use after which a subscription counts as unused (spec: Unused Month Count). */
    unusedMonthCount: integer('unused_month_count').notNull().default(3),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('clients_company_name_uq').on(sql`lower(${t.companyName})`),
    uniqueIndex('clients_business_id_uq').on(t.businessId),
    uniqueIndex('clients_provider_account_id_uq')
      .on(sql`lower(${t.providerAccountId})`)
      .where(sql`${t.providerAccountId} is not null`),
    index('clients_interest_status_idx').on(t.interestStatus),
    index('clients_reminder_date_idx').on(t.reminderDate),
  ],
);

export const subCompanies = pgTable(
  'sub_companies',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    name: text('name').notNull(),
    /** Users (subscriptions) the sub-company is billed for. */
    numberOfUsers: integer('number_of_users').notNull().default(0),
    billingPlanId: integer('billing_plan_id').references((): AnyPgColumn => clientBillingPlans.id),
    createdAt: createdAt(),
  },
  (t) => [
    check('sub_companies_number_of_users_ck', sql`${t.numberOfUsers} >= 0`),
    uniqueIndex('sub_companies_client_name_uq').on(t.clientId, sql`lower(${t.name})`),
  ],
);

export const costCenters = pgTable(
  'cost_centers',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('cost_centers_client_name_uq').on(t.clientId, sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    fullName: text('full_name').notNull(),
    roleId: integer('role_id').notNull(),
    clientId: integer('client_id').references(() => clients.id),
    contactNumber: text('contact_number'),
    address: text('address'),
    country: text('country'),
    languageId: integer('language_id').notNull().default(1),
    themeId: integer('theme_id').notNull().default(1),
    logoFileId: integer('logo_file_id'),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    activated: boolean('activated').notNull().default(false),
    permissions: jsonb('permissions').$type<string[]>(),
    tokenVersion: integer('token_version').notNull().default(0),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: moment('locked_until'),
    lastLoginAt: moment('last_login_at'),
    /** The alert digest mail (decision 0026): after each evaluation, daily, or never. */
    alertDigest: text('alert_digest', { enum: ALERT_DIGESTS }).notNull().default('daily'),
    /** The highest alert id already digested for this user (the next digest lists those above it). */
    alertDigestAfter: integer('alert_digest_after').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(sql`lower(${t.email})`),
    index('users_client_idx').on(t.clientId),
    check('users_alert_digest_ck', sql`${t.alertDigest} in ('immediate', 'daily', 'off')`),
  ],
);

/** A client user's allowed sub-companies and cost centers; none listed = the whole client. */
export const userSubCompanies = pgTable(
  'user_sub_companies',
  {
    userId: required('user_id', () => users.id, 'cascade'),
    subCompanyId: required('sub_company_id', () => subCompanies.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.subCompanyId] })],
);

export const userCostCenters = pgTable(
  'user_cost_centers',
  {
    userId: required('user_id', () => users.id, 'cascade'),
    costCenterId: required('cost_center_id', () => costCenters.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.costCenterId] })],
);

/** Operator contract details of a client (spec §3), one row per operator the client uses. */
export const clientOperators = pgTable(
  'client_operators',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    operatorId: operatorRef(),
    salesContactName: text('sales_contact_name'),
    uploadInvoiceReminder: boolean('upload_invoice_reminder').notNull().default(false),
    contractStartDate: date('contract_start_date'),
    contractEndDate: date('contract_end_date'),
    contractEndReminder: date('contract_end_reminder'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('client_operators_uq').on(t.clientId, t.operatorId)],
);

export const CONTRACT_STATUSES = ['draft', 'active', 'inactive', 'terminated'] as const;
export const BILLING_CYCLES = ['monthly', 'quarterly', 'half_yearly', 'yearly'] as const;

/**
 * Client contracts (spec §3, §4): draft → active → inactive / terminated. Monthly and yearly
 * cost are computed by the API from units, number of plans and the billing plan's fees, and kept
 * as they were when the contract was saved (a later fee change does not rewrite signed contracts).
 */
export const clientContracts = pgTable(
  'client_contracts',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    status: text('status', { enum: CONTRACT_STATUSES }).notNull(),
    term: text('term'),
    startDate: date('start_date').notNull(),
    endDate: date('end_date').notNull(),
    inactiveDate: date('inactive_date'),
    terminationDate: date('termination_date'),
    /** The client billing plan the contract is priced by (masters). */
    billingPlanId: integer('billing_plan_id').references((): AnyPgColumn => clientBillingPlans.id),
    billingCycle: text('billing_cycle', { enum: BILLING_CYCLES }).notNull().default('monthly'),
    numberOfPlans: integer('number_of_plans').notNull().default(0),
    /** Spec §5: 0 or 1. */
    units: integer('units').notNull().default(1),
    costPerUnit: numeric('cost_per_unit', { precision: 12, scale: 2 }),
    monthlyCost: numeric('monthly_cost', { precision: 14, scale: 2 }),
    yearlyCost: numeric('yearly_cost', { precision: 14, scale: 2 }),
    activatedAt: moment('activated_at'),
    terminatedAt: moment('terminated_at'),
    ...timestamps(),
  },
  (t) => [
    check('client_contracts_units_ck', sql`${t.units} in (0, 1)`),
    check('client_contracts_number_of_plans_ck', sql`${t.numberOfPlans} >= 0`),
    check('client_contracts_dates_ck', sql`${t.startDate} <= ${t.endDate}`),
    check(
      'client_contracts_termination_ck',
      sql`${t.terminationDate} is null or (${t.terminationDate} between ${t.startDate} and ${t.endDate})`,
    ),
    index('client_contracts_client_idx').on(t.clientId, t.startDate),
  ],
);

/** Reset and activation tokens: only the SHA-256 of the token is kept; single use. */
export const authTokens = pgTable('auth_tokens', {
  id: serial('id').primaryKey(),
  userId: required('user_id', () => users.id, 'cascade'),
  kind: text('kind', { enum: ['reset', 'activation'] }).notNull(),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: moment('expires_at').notNull(),
  usedAt: moment('used_at'),
  createdAt: createdAt(),
});

/**
 * Sessions ended by "Log out" before their access token expires (the token's `sid`); the access
 * check refuses them (migration 0022). Kept until the token's own expiry.
 */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    sid: text('sid').primaryKey(),
    userId: required('user_id', () => users.id, 'cascade'),
    expiresAt: moment('expires_at').notNull(),
  },
  (t) => [index('revoked_sessions_user_idx').on(t.userId)],
);

/**
 * Counters of what a stranger can repeat on the public account calls, one row per key and window
 * (lib/rate-counters.ts): in the database, so that every API instance counts against one limit.
 */
export const rateCounters = pgTable('rate_counters', {
  key: text('key').primaryKey(),
  windowStart: moment('window_start').notNull(),
  count: integer('count').notNull(),
});

/** Files (logos, invoice PDFs, documents, exports) live in the database: one backup, stateless APIs. */
export const files = pgTable('files', {
  id: serial('id').primaryKey(),
  clientId: integer('client_id').references(() => clients.id),
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/**
 * The bytes of a file stored as it streams in (invoice uploads), in order: the file's own `data`
 * is then empty. A file is read back whole by lib/files.ts `readFileData`.
 */
export const fileChunks = pgTable(
  'file_chunks',
  {
    fileId: required('file_id', () => files.id, 'cascade'),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fileId, t.seq] })],
);

/** Application-wide settings (layout builder), keyed by name. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * The provider's price list for its clients (spec §3 "Client billing plan"): master data, defined
 * here beside `clients`, sub-companies and contracts that refer to it, so that core.ts and masters.ts
 * do not import each other.
 */
export const clientBillingPlans = pgTable(
  'client_billing_plans',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    contractLengthMonths: integer('contract_length_months').notNull(),
    advancePaymentDiscountPercent: numeric('advance_payment_discount_percent', {
      precision: 5,
      scale: 2,
    }).notNull(),
    costPerPlan: price('cost_per_plan').notNull(),
    setUpFee: price('set_up_fee').notNull(),
    setUpFeePerCompany: price('set_up_fee_per_company').notNull(),
    additionalUsersFee: price('additional_users_fee').notNull(),
    automatedInvoiceUploadFee: price('automated_invoice_upload_fee').notNull(),
    onDemandSupportFee: price('on_demand_support_fee').notNull(),
    adminFee: price('admin_fee').notNull(),
    companyAdditionalUsersFee: price('company_additional_users_fee').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('client_billing_plans_name_uq').on(sql`lower(${t.name})`)],
);
