/**
 * How long a text an invoice reader takes may be (issue 37, item 2): one place for the Finvoice and
 * the PDF readers. A real invoice stays far below these (the Finvoice 3.0 schema allows 100
 * characters of ArticleName, 70 of a buyer's name, 512 of a RowFreeText, 35 of most ids); an
 * invoice with a longer text is refused with the field and the limit named, never cut, so what
 * is imported is what the invoice says, and a 19 MB "name" never reaches the database, the import's
 * memory or a page.
 */
import { InvoiceError } from './errors.js';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from './types.js';

export const TEXT_LIMITS = {
  /** A charge's label (also the name of its cost element). */
  label: 200,
  /** A subscription's user name. */
  userName: 200,
  /** A cost center code as printed. */
  costCenter: 100,
  /** The buyer's name. */
  customerName: 200,
  /** Invoice number, customer number, buyer's business id, reference number. */
  id: 64,
  /** Any one element a Finvoice reader decodes (a RowFreeText at most 512 by the schema). */
  element: 1000,
} as const;

/** A text of the invoice longer than its limit (TEXT_LIMITS). */
export class TextTooLongError extends InvoiceError {
  constructor(
    readonly field: string,
    readonly length: number,
    readonly limit: number,
  ) {
    super(
      'text_too_long',
      `${field} is ${length.toLocaleString('en')} characters long (at most ${limit.toLocaleString('en')})`,
    );
    this.name = 'TextTooLongError';
  }
}

/** Throws TextTooLongError when `text` is longer than `limit` characters. */
export function boundText(text: string | null | undefined, limit: number, field: string): void {
  if (text != null && text.length > limit) throw new TextTooLongError(field, text.length, limit);
}

/** Line `index` of `sub` (of the invoice itself when null); where it is named only when refused. */
function boundLine(line: InvoiceLine, index: number, sub: InvoiceSubscription | null): void {
  // an e-invoice's unit as stated (an attribute: not bounded by TEXT_LIMITS.element when read)
  const unitCode = line.unitCode ?? '';
  if (line.label.length <= TEXT_LIMITS.label && unitCode.length <= TEXT_LIMITS.id) return;
  const where = sub
    ? `line ${index + 1} of subscription ${sub.phoneNumber}`
    : `invoice-level line ${index + 1}`;
  boundText(line.label, TEXT_LIMITS.label, `the label of ${where}`);
  boundText(line.unitCode, TEXT_LIMITS.id, `the quantity unit of ${where}`);
}

function boundSubscription(sub: InvoiceSubscription): void {
  boundText(sub.phoneNumber, TEXT_LIMITS.id, 'a phone number');
  boundText(sub.userName, TEXT_LIMITS.userName, `the user name of subscription ${sub.phoneNumber}`);
  boundText(sub.costCenter, TEXT_LIMITS.costCenter, `the cost center of subscription ${sub.phoneNumber}`);
  for (let i = 0; i < sub.lines.length; i++) boundLine(sub.lines[i], i, sub);
}

/**
 * Checks every text of a parsed invoice against TEXT_LIMITS (both readers call it on what they give);
 * returns the invoice.
 */
export function checkTextBounds(invoice: ParsedInvoice): ParsedInvoice {
  boundText(invoice.invoiceNumber, TEXT_LIMITS.id, 'the invoice number');
  boundText(invoice.customerNumber, TEXT_LIMITS.id, 'the customer number');
  boundText(invoice.businessId, TEXT_LIMITS.id, "the buyer's business id");
  boundText(invoice.referenceNumber, TEXT_LIMITS.id, 'the reference number');
  boundText(invoice.customerName, TEXT_LIMITS.customerName, "the buyer's name");
  for (const sub of invoice.subscriptions) boundSubscription(sub);
  for (let i = 0; i < invoice.otherLines.length; i++) boundLine(invoice.otherLines[i], i, null);
  return invoice;
}
