/**
 * The structured invoice that parsing gives (the contract of `npm run invoice -- parse FILE.pdf`).
 * Amounts are euros rounded to the cent (computed exactly from integer cents), dates ISO `yyyy-mm-dd`.
 * See packages/invoices/README.md.
 */
export type LineCategory =
  'monthly_fee' | 'voice' | 'sms' | 'mms' | 'data' | 'service_number' | 'one_off' | 'discount' | 'other';

export type LineRegion = 'domestic' | 'nordic_baltic' | 'eu' | 'world';

/**
 * `pcs` pieces, `min` minutes (two decimals), `mb` megabytes (one decimal; GB × 1024); `other` a
 * quantity in a unit Kulu does not convert (days, months, hours of a service, kilograms, no unit…):
 * kept as stated, with the invoice's own unit in `InvoiceLine.unitCode`, and never counted as usage.
 */
export type QuantityUnit = 'pcs' | 'min' | 'mb' | 'other';

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
  /** With unit `other`: the unit as the invoice states it (`vrk`, `MON`, `h`; '' for none). */
  unitCode?: string | null;
  /** The line's VAT rate in percent where the invoice states one per line (e-invoices). */
  vatRate?: number | null;
}

/** One VAT rate of an invoice as the invoice states it: the base, the rate and its VAT. */
export interface VatBreakdown {
  /** Percent, e.g. 25.5, 14, 0. */
  rate: number;
  /** Excluding VAT, euros. */
  base: number;
  /** The VAT the invoice states for this rate, euros. */
  vat: number;
}

/**
 * What the document says it is (Finvoice `OriginCode`; Peppol has only originals): a `copy` is a
 * re-sent invoice, a `cancel` cancels an earlier one. Neither may ever be added as a new cost.
 */
export type InvoiceOrigin = 'original' | 'copy' | 'cancel';

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
  /** Percent, e.g. 25.5: the rate of the largest base where there are several (see vatBreakdown). */
  vatRate: number;
  /** VAT per rate as the invoice states it; absent where it states one rate only (then vatRate). */
  vatBreakdown?: VatBreakdown[];
  /** Absent: an original. */
  origin?: InvoiceOrigin;
  /** For a copy or a cancellation: the number of the invoice it copies or cancels, where stated. */
  originalInvoiceNumber?: string | null;
  totalExclVat: number;
  vatAmount: number;
  totalInclVat: number;
  subscriptions: InvoiceSubscription[];
  /**
   * Invoice-level lines (`Muut maksut`), e.g. the paper-invoice fee, and the invoice-level charges
   * (category `other`) and discounts (category `discount`, negative) of an e-invoice.
   */
  otherLines: InvoiceLine[];
  /**
   * Where the invoice's own figures disagree (an e-invoice whose rows do not add up to its stated
   * total, a stated VAT that is not base × rate): each difference, never absorbed. Absent or empty:
   * everything reconciles to the cent. A PDF that does not reconcile is refused instead (its
   * reconciliation is the proof that its layout was read right).
   */
  differences?: InvoiceDifference[];
}

/** One stated figure beside the figure computed from the invoice's lines (euros). */
export interface InvoiceDifference {
  /** `rows`: subscriptions + invoice-level lines vs the stated total excluding VAT; `vat`: one rate's VAT; `total`: excl. + VAT vs the stated total including VAT. */
  where: 'rows' | 'vat' | 'total';
  /** For `vat`: the rate in percent. */
  rate?: number;
  stated: number;
  computed: number;
  /** stated − computed. */
  difference: number;
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
