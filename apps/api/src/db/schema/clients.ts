import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, happenedAt, required, timestamps } from './columns.js';
import {
  byUser,
  clientOperators,
  clientRef,
  clients,
  costCenters,
  files,
  subCompanies,
  users,
} from './core.js';
import { subscriptions } from './invoices.js';

/**
 * Client management (issue 11): a consultant's assigned companies, payments, on-demand support
 * hours, operator contract documents, the subscriptions' users (invoice user management) and the
 * activity log. Design: docs/decisions/0007-client-management.md.
 */

/**
 * Assign companies: the companies a consultant client (clients.type = 'consultant') works for.
 * Every user of that consultant client sees exactly these companies (lib/scope.ts
 * `assignedClientIds`).
 */
export const consultantCompanies = pgTable(
  'consultant_companies',
  {
    consultantClientId: required('consultant_client_id', () => clients.id, 'cascade'),
    clientId: clientRef('cascade'),
    assignedAt: happenedAt('assigned_at'),
  },
  (t) => [
    primaryKey({ columns: [t.consultantClientId, t.clientId] }),
    check('consultant_companies_not_self_ck', sql`${t.consultantClientId} <> ${t.clientId}`),
    index('consultant_companies_client_idx').on(t.clientId),
  ],
);

/**
 * The same for the provider's own consultants (users with the consultant role and no client):
 * their companies are assigned per user (provider user management).
 */
export const consultantUserCompanies = pgTable(
  'consultant_user_companies',
  {
    userId: required('user_id', () => users.id, 'cascade'),
    clientId: clientRef('cascade'),
    assignedAt: happenedAt('assigned_at'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.clientId] }),
    index('consultant_user_companies_client_idx').on(t.clientId),
  ],
);

/** Client payments (spec §3): amount > 0, date not in the future (the API checks the date). */
export const clientPayments = pgTable(
  'client_payments',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    paymentDate: date('payment_date').notNull(),
    description: text('description'),
    amount: numeric('amount', { precision: 14, scale: 2 }).notNull(),
    createdBy: byUser('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('client_payments_amount_ck', sql`${t.amount} > 0`),
    index('client_payments_client_idx').on(t.clientId, t.paymentDate),
  ],
);

/** On-demand support hours (spec §3): hours > 0, a day of the current month up to today (API). */
export const onDemandSupport = pgTable(
  'on_demand_support',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    supportDate: date('support_date').notNull(),
    description: text('description'),
    hours: numeric('hours', { precision: 6, scale: 2 }).notNull(),
    createdBy: byUser('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    check('on_demand_support_hours_ck', sql`${t.hours} > 0`),
    index('on_demand_support_client_idx').on(t.clientId, t.supportDate),
  ],
);

/**
 * Documents of an operator contract (spec §3 "Operator contract details"): the content is a row
 * of `files`; the name (alphanumeric) is unique per operator contract, case-insensitively.
 */
export const clientOperatorDocuments = pgTable(
  'client_operator_documents',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    clientOperatorId: required('client_operator_id', () => clientOperators.id, 'cascade'),
    name: text('name').notNull(),
    fileId: required('file_id', () => files.id),
    uploadedBy: byUser('uploaded_by'),
    uploadedAt: happenedAt('uploaded_at'),
  },
  (t) => [
    uniqueIndex('client_operator_documents_name_uq').on(t.clientOperatorId, sql`lower(${t.name})`),
    index('client_operator_documents_client_idx').on(t.clientId),
  ],
);

/**
 * Invoice User Management: the person behind a subscription (by phone number, E.164), whether or
 * not an invoice has shown the number yet. `allowLogin` creates a client user (`userId`) who gets
 * the activation mail.
 */
export const invoiceUsers = pgTable(
  'invoice_users',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    phoneNumber: text('phone_number').notNull(),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email'),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id),
    costCenterId: integer('cost_center_id').references(() => costCenters.id),
    mobileBenefit: boolean('mobile_benefit').notNull().default(false),
    fiveGPlan: boolean('five_g_plan').notNull().default(false),
    allowLogin: boolean('allow_login').notNull().default(false),
    userId: byUser('user_id'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('invoice_users_phone_uq').on(t.clientId, t.phoneNumber),
    index('invoice_users_sub_company_idx').on(t.subCompanyId),
    index('invoice_users_cost_center_idx').on(t.costCenterId),
  ],
);

/**
 * The activity log: every change of client management and master data, written in the same
 * transaction as the change (lib/activity-log.ts). `before` / `after` are the entity as the API
 * answers it (secrets never included); null for a create's before and a delete's after.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: serial('id').primaryKey(),
    at: happenedAt('at'),
    userId: byUser('user_id'),
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'set null' }),
    /** What part of the product: 'clients', 'contracts', 'masters', … */
    area: text('area').notNull(),
    /** create | update | delete | convert | assign | terminate | … */
    action: text('action').notNull(),
    /** The kind of row: 'client', 'contract', a master's key, … */
    entity: text('entity').notNull(),
    entityId: integer('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [
    index('activity_log_client_at_idx').on(t.clientId, t.at),
    index('activity_log_user_at_idx').on(t.userId, t.at),
    index('activity_log_area_at_idx').on(t.area, t.at),
  ],
);
