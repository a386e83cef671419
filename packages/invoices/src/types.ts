/**
 * The structured invoice that parsing gives (the contract of `npm run invoice -- parse FILE.pdf`).
 * Amounts are euros rounded to the cent (computed exactly from integer cents), dates ISO `yyyy-mm-dd`.
 * See packages/invoices/README.md.
 */
export type LineCategory =
  'monthly_fee' | 'voice' | 'sms' | 'mms' | 'data' | 'service_number' | 'one_off' | 'discount' | 'other';

export type LineRegion = 'domestic' | 'nordic_baltic' | 'eu' | 'world';

/** `pcs` pieces, `min` minutes (two decimals), `mb` megabytes (one decimal; GB × 1024). */
export type QuantityUnit = 'pcs' | 'min' | 'mb';

export interface InvoiceLine {
  label: string;
  category: LineCategory;
  region: LineRegion | null;
  periodStart: string | null;
  periodEnd: string | null;
  /** The printed count column (Telia `Kpl`, DNA `Lkm`); null where not printed. */
  count: number | null;
  quantity: number | null;
  unit: QuantityUnit | null;
  /** Only where the layout prints a unit price (Elisa `À-hinta`). */
  unitPrice: number | null;
  /** Excluding VAT; negative for credits. */
  amount: number;
}

export interface InvoiceSubscription {
  /** E.164, e.g. `+358401234567`. */
  phoneNumber: string;
  userName: string;
  /** The cost center code (`1001`), null where the invoice prints none. */
  costCenter: string | null;
  /** The printed subscription total (equals the sum of its lines). */
  total: number;
  lines: InvoiceLine[];
}

export interface ParsedInvoice {
  operator: string;
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  customerNumber: string;
  customerName: string;
  /** The customer's (buyer's) business id (Y-tunnus), `1234567-8`; null where the invoice prints none. */
  businessId: string | null;
  referenceNumber: string;
  currency: 'EUR';
  /** Percent, e.g. 25.5. */
  vatRate: number;
  totalExclVat: number;
  vatAmount: number;
  totalInclVat: number;
  subscriptions: InvoiceSubscription[];
  /** Invoice-level lines (`Muut maksut`), e.g. the paper-invoice fee. */
  otherLines: InvoiceLine[];
}

/** A text item with its position: x from the left, y from the top of the page (baseline), in PDF points. */
export interface TextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Neighbouring items of one line merged into a cell (a run of text without a column gap). */
export interface TextCell {
  text: string;
  x0: number;
  x1: number;
}

export interface TextLine {
  page: number;
  y: number;
  items: TextItem[];
  cells: TextCell[];
  /** The cells joined by a single space. */
  text: string;
}

export interface TextPage {
  number: number;
  width: number;
  height: number;
  lines: TextLine[];
}

export interface TextDocument {
  pages: TextPage[];
  /** The PDF was damaged (e.g. truncated) and the reader had to repair it to read this text. */
  repaired?: boolean;
}
