import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, happenedAt, moment, required, timestamps } from './columns.js';
import { byUser, clientRef, costCenters, files, operatorRef, operators, subCompanies } from './core.js';
import { costCategories, costElements, plans } from './masters.js';
import type { InvoiceDifference, VatBreakdown } from '@kulu/invoices';

/**
 * Invoice ingestion (issue 4): the uploaded or fetched invoice, its lines, the subscriptions seen
 * on invoices and the monthly cost/usage facts every dashboard reads. Money is `numeric`, never a
 * float: totals and amounts with 2 decimals, unit prices with 4.
 */

const money = (name: string) => numeric(name, { precision: 14, scale: 2 });

export const UPLOAD_STATES = ['in_progress', 'uploaded', 'failed'] as const;
export const PARSING_STATUSES = ['pending', 'completed'] as const;
export const INVOICE_FORMATS = ['pdf', 'finvoice', 'peppol'] as const;

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    /** Known once parsed (the operator is detected from the PDF). */
    operatorId: integer('operator_id').references(() => operators.id),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id),
    fileId: required('file_id', () => files.id),
    fileName: text('file_name').notNull(),
    /** SHA-256 of the PDF bytes: the same file uploaded twice is refused at once. */
    fileSha256: text('file_sha256').notNull(),
    /** Bytes of the uploaded file, kept when a failed invoice's file is removed (the daily upload budget). */
    fileSize: integer('file_size').notNull().default(0),
    source: text('source', { enum: ['upload', 'automation', 'demo'] })
      .notNull()
      .default('upload'),
    /** What the file turned out to be when read: `finvoice` for an e-invoice (issue 24). */
    format: text('format', { enum: INVOICE_FORMATS }).notNull().default('pdf'),
    /** One upload request; files of the same request do not block each other. */
    batchId: text('batch_id').notNull(),
    invoiceNumber: text('invoice_number'),
    invoiceDate: date('invoice_date'),
    dueDate: date('due_date'),
    /** The billing month (first and last day of the invoice date's month). */
    periodStart: date('period_start'),
    periodEnd: date('period_end'),
    customerName: text('customer_name'),
    businessId: text('business_id'),
    currency: text('currency'),
    vatRate: numeric('vat_rate', { precision: 5, scale: 2 }),
    totalExclVat: money('total_excl_vat'),
    vatAmount: money('vat_amount'),
    totalInclVat: money('total_incl_vat'),
    /** VAT per rate as the invoice states it (a PDF's or a one-rate invoice's one rate); null until read. */
    vatBreakdown: jsonb('vat_breakdown').$type<VatBreakdown[]>(),
    /** Where the invoice's own figures disagree (issue 38): never absorbed; [] reconciles to the cent. */
    differences: jsonb('differences').$type<InvoiceDifference[]>().notNull().default([]),
    /** The largest difference by size (signed, euros): 0 reconciled, null not read. */
    difference: money('difference'),
    /** The sums of the subscriptions' lines and of the invoice-level lines as read (skipped numbers included). */
    subscriptionsTotal: money('subscriptions_total'),
    otherLinesTotal: money('other_lines_total'),
    uploadState: text('upload_state', { enum: UPLOAD_STATES }).notNull().default('in_progress'),
    parsingStatus: text('parsing_status', { enum: PARSING_STATUSES }).notNull().default('pending'),
    /** A message code of packages/shared (e.g. invalidInvoice) and the parser's detailed message. */
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    uploadedBy: byUser('uploaded_by'),
    /**
     * A company admin confirmed that this invoice, printing no business id and another buyer's
     * name, is the company's all the same (issue 37, item 11): its import skips the name check.
     */
    buyerConfirmedBy: byUser('buyer_confirmed_by'),
    buyerConfirmedAt: moment('buyer_confirmed_at'),
    /** Users refused while this invoice was parsing: mailed when it finishes. */
    notifyUserIds: jsonb('notify_user_ids').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
    parsedAt: moment('parsed_at'),
    /** Lines and subscriptions with lines, written with the lines by the import (the list shows them). */
    lineCount: integer('line_count').notNull().default(0),
    subscriptionCount: integer('subscription_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('invoices_number_uq')
      .on(t.clientId, t.operatorId, t.invoiceNumber)
      .where(sql`${t.uploadState} = 'uploaded'`),
    index('invoices_client_state_idx').on(t.clientId, t.uploadState),
    index('invoices_client_sha_idx').on(t.clientId, t.fileSha256),
    index('invoices_client_difference_idx')
      .on(t.clientId)
      .where(sql`abs(${t.difference}) > 0.01`),
  ],
);

/**
 * Bytes a client's upload request sent that no invoice keeps (files refused as duplicates, too
 * large, not a PDF, or a request that broke off): they count against the daily upload budget with
 * the invoices' `file_size` (issue 23), so refused copies cannot churn storage without limit. One
 * row per such request; the daily cleanup drops rows older than 24 hours.
 */
export const uploadReceipts = pgTable(
  'upload_receipts',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef('cascade'),
    bytes: integer('bytes').notNull(),
    receivedAt: happenedAt('received_at'),
  },
  (t) => [index('upload_receipts_client_idx').on(t.clientId, t.receivedAt)],
);

/** A subscription (phone number) of a client, created when an invoice first shows it. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    /** E.164. */
    phoneNumber: text('phone_number').notNull(),
    userName: text('user_name').notNull(),
    operatorId: operatorRef(),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id),
    costCenterId: integer('cost_center_id').references(() => costCenters.id),
    currentPlanId: integer('current_plan_id').references(() => plans.id),
    /** First days of the first and last billing months it appeared in. */
    firstSeenMonth: date('first_seen_month').notNull(),
    lastSeenMonth: date('last_seen_month').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('subscriptions_client_phone_uq').on(t.clientId, t.phoneNumber),
    index('subscriptions_sub_company_idx').on(t.subCompanyId),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: serial('id').primaryKey(),
    invoiceId: required('invoice_id', () => invoices.id, 'cascade'),
    clientId: clientRef(),
    /** null: an invoice-level line (`Muut maksut`). */
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    position: integer('position').notNull(),
    label: text('label').notNull(),
    costElementId: required('cost_element_id', () => costElements.id),
    category: text('category').notNull(),
    region: text('region'),
    periodStart: date('period_start'),
    periodEnd: date('period_end'),
    count: integer('count'),
    quantity: numeric('quantity', { precision: 16, scale: 2 }),
    unit: text('unit', { enum: ['pcs', 'min', 'mb', 'other'] }),
    unitPrice: numeric('unit_price', { precision: 12, scale: 4 }),
    amount: money('amount').notNull(),
    /** With unit `other`: the unit as the invoice states it (`vrk`, `MON`; '' none). */
    unitCode: text('unit_code'),
  },
  (t) => [
    index('invoice_lines_invoice_idx').on(t.invoiceId),
    index('invoice_lines_subscription_idx').on(t.subscriptionId),
  ],
);

/**
 * Monthly cost and usage per subscription and cost element (and its cost category), per invoice:
 * what dashboards and reports sum. `month` is the billing month (first day). Re-categorizing a
 * cost element updates `cost_category_id` here by `cost_element_id`.
 */
export const monthlyFacts = pgTable(
  'monthly_facts',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    invoiceId: required('invoice_id', () => invoices.id, 'cascade'),
    operatorId: operatorRef(),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id),
    subCompanyId: integer('sub_company_id').references(() => subCompanies.id),
    costCenterId: integer('cost_center_id').references(() => costCenters.id),
    month: date('month').notNull(),
    costElementId: required('cost_element_id', () => costElements.id),
    costCategoryId: integer('cost_category_id').references(() => costCategories.id),
    amount: money('amount').notNull(),
    quantity: numeric('quantity', { precision: 16, scale: 2 }),
    unit: text('unit', { enum: ['pcs', 'min', 'mb', 'other'] }),
  },
  (t) => [
    uniqueIndex('monthly_facts_uq').on(t.invoiceId, sql`coalesce(${t.subscriptionId}, 0)`, t.costElementId),
    index('monthly_facts_client_month_idx').on(t.clientId, t.month),
    index('monthly_facts_subscription_idx').on(t.subscriptionId, t.month),
  ],
);

/** Operator portal sign-in of a client on automated upload; the password is AES-256-GCM sealed. */
export const portalCredentials = pgTable(
  'portal_credentials',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    operatorId: operatorRef(),
    portalUrl: text('portal_url').notNull(),
    username: text('username').notNull(),
    passwordSealed: text('password_sealed').notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex('portal_credentials_uq').on(t.clientId, t.operatorId)],
);

/** One automated retrieval per client × operator × month: the Full Automation and Failed Download reports. */
export const invoiceFetchRuns = pgTable(
  'invoice_fetch_runs',
  {
    id: serial('id').primaryKey(),
    clientId: clientRef(),
    operatorId: operatorRef(),
    /** First day of the billing month fetched. */
    month: date('month').notNull(),
    status: text('status', { enum: ['running', 'succeeded', 'failed'] }).notNull(),
    downloaded: integer('downloaded').notNull().default(0),
    reason: text('reason'),
    startedAt: happenedAt('started_at'),
    finishedAt: moment('finished_at'),
  },
  (t) => [index('invoice_fetch_runs_client_idx').on(t.clientId, t.month)],
);
