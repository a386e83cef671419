import { z } from 'zod';
import { subscriptionOfRow } from './dashboards.js';
import {
  idSchema,
  listAnswer,
  named,
  namedOrNull,
  pagedAnswer,
  pagedSortedBy,
  searchText,
  text,
} from './primitives.js';

/**
 * Invoice ingestion (issue 4). Money travels as decimal strings ("1234.50"), as in the masters
 * (docs/decisions/0002-master-resources.md).
 */

export const UPLOAD_STATES = ['in_progress', 'uploaded', 'failed'] as const;
export const PARSING_STATUSES = ['pending', 'completed'] as const;
export type UploadState = (typeof UPLOAD_STATES)[number];
/** What an invoice arrived as: a PDF of a modelled layout, a Finvoice or a Peppol BIS Billing 3.0 e-invoice (XML). */
export const INVOICE_FORMATS = ['pdf', 'finvoice', 'peppol'] as const;
export type InvoiceFormat = (typeof INVOICE_FORMATS)[number];
export type ParsingStatus = (typeof PARSING_STATUSES)[number];

/** Largest invoice PDF accepted (security baseline). */
export const INVOICE_MAX_BYTES = 20 * 1024 * 1024;
/** Files per upload request. */
export const INVOICE_MAX_FILES = 20;

const money = z.string().nullable();

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/**
 * What an invoice file is by its first bytes (never by its name or type), on both sides of an
 * upload: `pdf` when `%PDF-` is within the first KiB (as PDF readers accept); `xml` (a Finvoice
 * e-invoice, perhaps behind its SOAP transport frame) when, after an optional UTF-8 byte order mark
 * and white space, a tag or declaration starts; else null. Whether the XML is a Finvoice document
 * the parse decides, with its own reason for each refusal.
 */
export function invoiceFileKind(head: Uint8Array): 'pdf' | 'xml' | null {
  const n = Math.min(head.length, 1024);
  for (let i = 0; i + PDF_MAGIC.length <= n; i++) {
    if (PDF_MAGIC.every((b, k) => head[i + k] === b)) return 'pdf';
  }
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < n && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] !== 0x3c) return null; // <
  const next = head[i + 1] ?? 0;
  const nameStart = (next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a) || next === 0x5f;
  return next === 0x3f || next === 0x21 || nameStart ? 'xml' : null; // <? <! or a name
}

export const invoiceSchema = z.object({
  id: z.number().int(),
  ...named('client'),
  ...namedOrNull('operator'),
  ...namedOrNull('subCompany'),
  fileName: z.string(),
  source: z.enum(['upload', 'automation', 'demo']),
  /** `finvoice` for an e-invoice (shown as a tag); `pdf` otherwise, also before it is read. */
  format: z.enum(INVOICE_FORMATS),
  invoiceNumber: z.string().nullable(),
  /**
   * Whom the invoice is addressed to, as printed on it (known once read, also for a refused one);
   * a read invoice with a null business id carried none.
   */
  buyerName: z.string().nullable(),
  buyerBusinessId: z.string().nullable(),
  invoiceDate: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  vatRate: money,
  totalExclVat: money,
  vatAmount: money,
  totalInclVat: money,
  uploadState: z.enum(UPLOAD_STATES),
  parsingStatus: z.enum(PARSING_STATUSES),
  /** A message code (e.g. invalidInvoice) with its text in the caller's language, and the parser's detail. */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  errorDetail: z.string().nullable(),
  subscriptionCount: z.number().int(),
  lineCount: z.number().int(),
  createdAt: z.string(),
  parsedAt: z.string().nullable(),
  /**
   * The reconciliation column (issue 38): the largest difference between the invoice's stated and
   * computed figures, signed (stated − computed), euros; "0.00" reconciled to the cent, null not read.
   */
  difference: money,
});
export type Invoice = z.infer<typeof invoiceSchema>;

/** A difference above this (euros) is unexplained: the list, the invoice page and the dashboard say so. */
export const RECONCILIATION_TOLERANCE = 0.01;

/** Whether an invoice's `difference` is above one cent. */
export const isUnreconciled = (difference: string | null | undefined) =>
  difference != null && Math.abs(Number(difference)) > RECONCILIATION_TOLERANCE;

/** The answer of DELETE /api/invoices/:id: what went with the invoice. */
export const invoiceDeletedSchema = z.object({
  code: z.literal('invoiceDeleted'),
  message: z.string(),
  removed: z.object({
    lines: z.number().int(),
    facts: z.number().int(),
    subscriptions: z.number().int(),
    costElements: z.number().int(),
  }),
});
export type InvoiceDeleted = z.infer<typeof invoiceDeletedSchema>;

export const INVOICE_SORTABLE = [
  'invoiceNumber',
  'invoiceDate',
  'operatorName',
  'clientName',
  'subCompanyName',
  'totalExclVat',
  'totalInclVat',
  'uploadState',
  'parsingStatus',
  'createdAt',
  'difference',
] as const;

export const invoiceListQuerySchema = z.object({
  ...pagedSortedBy(INVOICE_SORTABLE, 'createdAt', 'desc'),
  q: searchText.optional(),
  clientId: idSchema.optional(),
  operatorId: idSchema.optional(),
  subCompanyId: idSchema.optional(),
  uploadState: z.enum(UPLOAD_STATES).optional(),
  parsingStatus: z.enum(PARSING_STATUSES).optional(),
  /** `true`: read invoices that reconcile to the cent; `false`: those with a difference above one cent. */
  reconciled: z.enum(['true', 'false'], { error: 'validation' }).optional(),
  /** yyyy-mm: invoices of this billing month. */
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
    .optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

export const invoiceListSchema = pagedAnswer(invoiceSchema);
export type InvoiceList = z.infer<typeof invoiceListSchema>;

/** The answer for each file of an upload. */
export const invoiceUploadResultSchema = z.object({
  fileName: z.string(),
  status: z.enum(['accepted', 'refused']),
  invoiceId: z.number().int().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
export type InvoiceUploadResult = z.infer<typeof invoiceUploadResultSchema>;

export const invoiceUploadResponseSchema = z.object({
  results: z.array(invoiceUploadResultSchema),
  accepted: z.number().int(),
  refused: z.number().int(),
});
export type InvoiceUploadResponse = z.infer<typeof invoiceUploadResponseSchema>;

export const invoiceLineSchema = z.object({
  id: z.number().int(),
  phoneNumber: z.string().nullable(),
  userName: z.string().nullable(),
  label: z.string(),
  costElementId: z.number().int(),
  costCategoryName: z.string().nullable(),
  category: z.string(),
  region: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  quantity: z.string().nullable(),
  unit: z.string().nullable(),
  unitPrice: z.string().nullable(),
  amount: z.string(),
  /** With unit `other`: the unit as the invoice states it. */
  unitCode: z.string().nullable(),
});
export type InvoiceLineRow = z.infer<typeof invoiceLineSchema>;

// Invoice detail (issue 10)

/** Cost of one cost category (null: cost elements not yet categorized; name '' then). */
export const categoryCostSchema = z.object({
  costCategoryId: z.number().int().nullable(),
  /** In the caller's language; '' for the uncategorized group (the web names it). */
  name: z.string(),
  usageType: z.string().nullable(),
  cost: z.string(),
});
export type CategoryCost = z.infer<typeof categoryCostSchema>;

/** Where a difference sits: `rows` the lines vs the stated total excl. VAT, `vat` one rate's VAT, `total` excl. + VAT vs incl. */
export const DIFFERENCE_PLACES = ['rows', 'vat', 'total'] as const;

/** One stated figure beside the one computed from the invoice's lines (euros as decimal strings). */
export const invoiceDifferenceSchema = z.object({
  where: z.enum(DIFFERENCE_PLACES),
  /** For `vat`: the rate in percent. */
  rate: z.string().nullable(),
  stated: z.string(),
  computed: z.string(),
  /** stated − computed. */
  difference: z.string(),
});
export type InvoiceDifferenceRow = z.infer<typeof invoiceDifferenceSchema>;

/** One VAT rate: its base and VAT as stated, and the base × rate computed (rounded to the cent). */
export const invoiceVatRateSchema = z.object({
  rate: z.string(),
  base: z.string(),
  statedVat: z.string(),
  computedVat: z.string(),
});

/**
 * An invoice's reconciliation (issue 38): its subscriptions' lines plus its invoice-level lines
 * (computed total excl. VAT) beside the stated total, VAT per rate, the stated total incl. VAT
 * beside excl. + VAT, and each difference above one cent with where it sits (never absorbed).
 */
export const invoiceReconciliationSchema = z.object({
  subscriptionsTotal: z.string(),
  otherLinesTotal: z.string(),
  computedExclVat: z.string(),
  statedExclVat: z.string(),
  vatRates: z.array(invoiceVatRateSchema),
  statedVat: z.string(),
  /** The stated total excl. VAT + the stated VAT. */
  computedInclVat: z.string(),
  statedInclVat: z.string(),
  differences: z.array(invoiceDifferenceSchema),
  reconciled: z.boolean(),
});
export type InvoiceReconciliation = z.infer<typeof invoiceReconciliationSchema>;

/** A line whose quantity is in a unit Kulu does not convert (kept as stated, never counted as usage). */
export const unconvertedLineSchema = z.object({
  label: z.string(),
  phoneNumber: z.string().nullable(),
  userName: z.string().nullable(),
  quantity: z.string().nullable(),
  /** The unit as the invoice states it ('' none). */
  unitCode: z.string(),
  amount: z.string(),
});
export type UnconvertedLine = z.infer<typeof unconvertedLineSchema>;

/** The most unconverted lines an invoice's detail lists (their number is given in full). */
export const UNCONVERTED_LINES_SHOWN = 200;

/**
 * GET /api/invoices/:id: the invoice header with its cost by category and the invoice-level lines
 * (no subscription: `Muut maksut`). The subscriptions and their lines come page by page from
 * GET /api/invoices/:id/subscriptions, so a 2,000-subscription invoice is never sent at once.
 */
export const invoiceDetailSchema = invoiceSchema.extend({
  /** Over the lines the caller may see (every line for users without sub-company limits). */
  byCategory: z.array(categoryCostSchema),
  /** Lines without a subscription (invoice-level charges). */
  otherLines: z.array(invoiceLineSchema),
  /** null: not read, or the caller sees only some sub-companies or cost centers of it. */
  reconciliation: invoiceReconciliationSchema.nullable(),
  /** Lines in units Kulu does not convert, the first UNCONVERTED_LINES_SHOWN of those the caller may see. */
  unconvertedLines: listAnswer(unconvertedLineSchema),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const INVOICE_SUBSCRIPTION_SORTABLE = [
  'phoneNumber',
  'userName',
  'subCompanyName',
  'costCenterName',
  'planName',
  'total',
] as const;
export type InvoiceSubscriptionSort = (typeof INVOICE_SUBSCRIPTION_SORTABLE)[number];

export const invoiceSubscriptionsQuerySchema = z.object({
  ...pagedSortedBy(INVOICE_SUBSCRIPTION_SORTABLE, 'phoneNumber', 'asc'),
  /** Matches the phone number or the user name (contains, case-insensitive). */
  q: searchText.optional(),
});
export type InvoiceSubscriptionsQuery = z.infer<typeof invoiceSubscriptionsQuerySchema>;

export const invoiceSubscriptionSchema = z.object({
  ...subscriptionOfRow,
  planName: z.string().nullable(),
  /** The sum of its lines on this invoice. */
  total: z.string(),
  lines: z.array(invoiceLineSchema),
});
export type InvoiceSubscription = z.infer<typeof invoiceSubscriptionSchema>;

export const invoiceSubscriptionListSchema = pagedAnswer(invoiceSubscriptionSchema);
export type InvoiceSubscriptionList = z.infer<typeof invoiceSubscriptionListSchema>;

// Automation (provider: permission `automation`)

export const portalCredentialsSchema = z.object({
  operatorId: idSchema,
  portalUrl: text({ max: 500 }).url(),
  username: text({ min: 1, max: 200 }),
  password: text({ min: 1, max: 500, trim: false }),
});
export type PortalCredentialsInput = z.infer<typeof portalCredentialsSchema>;

/** What the API shows of stored credentials: never the password. */
export const portalCredentialsViewSchema = z.object({
  id: z.number().int(),
  clientId: z.number().int(),
  ...named('operator'),
  portalUrl: z.string(),
  username: z.string(),
  hasPassword: z.literal(true),
  updatedAt: z.string(),
});
export type PortalCredentialsView = z.infer<typeof portalCredentialsViewSchema>;

export const fetchRunSchema = z.object({
  id: z.number().int(),
  ...named('client'),
  ...named('operator'),
  month: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  downloaded: z.number().int(),
  reason: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type FetchRun = z.infer<typeof fetchRunSchema>;

export const fullAutomationRowSchema = z.object({
  ...named('client'),
  operators: z.array(z.string()),
  lastRunAt: z.string().nullable(),
  lastResult: z.enum(['running', 'succeeded', 'failed']).nullable(),
  lastReason: z.string().nullable(),
});
export type FullAutomationRow = z.infer<typeof fullAutomationRowSchema>;
