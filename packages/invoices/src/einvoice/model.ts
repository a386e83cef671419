/**
 * The format-neutral e-invoice: what a reader (Finvoice, Peppol UBL) hands the builder (builder.ts).
 * Texts stay as the document states them (amounts with a decimal comma or point, dates in the
 * format's own form, read by the format's `readDate`); the builder reads and checks them.
 */
import type { InvoiceOrigin } from '../types.js';

/** A quantity as stated: the value and the unit (free text and UN/ECE Rec 20 code). */
export interface EInvoiceQuantity {
  value: string;
  /** Free-text unit (Finvoice QuantityUnitCode: `kpl`, `min`, `vrk`); '' when none. */
  unit: string;
  /** UN/ECE Recommendation 20 code (Finvoice QuantityUnitCodeUN, UBL unitCode); '' when none. */
  unitUN: string;
}

/** One row as read (a charge row, a text row, or a block of sub-rows). */
export interface EInvoiceRow {
  /** 1-based position among the document's rows (for messages). */
  index: number;
  /** Made only of sub-rows (Finvoice SubInvoiceRow): a subtotal or specification block, not a charge. */
  subBlock: boolean;
  articleName: string;
  quantities: EInvoiceQuantity[];
  startDate: string | null;
  endDate: string | null;
  unitPrice: string | null;
  accountDimension: string | null;
  freeTexts: string[];
  vatRate: string | null;
  vatExcluded: string | null;
  vatAmount: string | null;
  /** The row's amount; with neither vatExcluded nor vatAmount it includes VAT at vatRate. */
  amount: string | null;
}

/** An invoice-level charge or discount (not on a row): Finvoice 3.0 Charge/DiscountDetails, UBL AllowanceCharge. */
export interface EInvoiceCharge {
  /** A discount (allowance) is subtracted, a charge added. */
  kind: 'charge' | 'discount';
  /** Excluding VAT, as stated (positive: the kind gives the sign); null: `percent` of `base`. */
  amount: string | null;
  /** Percent of `base`, where the document states the charge so instead of as an amount. */
  percent?: string | null;
  base?: string | null;
  vatRate: string | null;
  /** The reason as text, else as a code; null: the builder names it (`Alennus`, `Lisäveloitus`). */
  reason: string | null;
}

/** One VAT rate as the document states it. */
export interface EInvoiceVat {
  base: string | null;
  rate: string | null;
  amount: string | null;
}

/**
 * The document's header, given to `finish` after the identity checks (format, version, type, seller,
 * currency) the reader makes itself.
 */
export interface EInvoiceHeader {
  operator: string;
  invoiceNumber: string | null;
  invoiceDate: string | null;
  /** Null: `dueDateFallback`, else the invoice date. */
  dueDate: string | null;
  /** A date read leniently when there is no due date (Finvoice EpiDateOptionDate). */
  dueDateFallback: string | null;
  customerNumber: string;
  customerName: string;
  businessId: string | null;
  referenceNumber: string;
  totalExcl: string | null;
  totalVat: string | null;
  totalIncl: string | null;
  /** Per rate (Finvoice VatSpecificationDetails, UBL TaxSubtotal); empty: the rows' one rate. */
  vat: EInvoiceVat[];
  charges: EInvoiceCharge[];
  origin: InvoiceOrigin;
  originalInvoiceNumber: string | null;
}

/** What the builder needs to know of a format: its name and element names (for messages), its dates. */
export interface EInvoiceFormat {
  /** `Finvoice`, `Peppol`: in messages. */
  name: string;
  /** The format's date text → ISO `yyyy-mm-dd`; null when not a valid date. */
  readDate(text: string): string | null;
  /** How the format writes a date, for messages (`CCYYMMDD`, `YYYY-MM-DD`). */
  dateForm: string;
  /** The format's element names, for messages. */
  names: {
    invoiceNumber: string;
    invoiceDate: string;
    dueDate: string;
    totalExcl: string;
    totalVat: string;
    totalIncl: string;
    vatBase: string;
    vatRate: string;
    vatAmount: string;
    vatSpecification: string;
    /** The invoice-level charges and discounts, and their amount (`ChargeDetails` / `DiscountDetails`, `Amount`). */
    charge?: string;
    chargeAmount?: string;
    rowVatExcluded: string;
    rowVatAmount: string;
    rowAmount: string;
    rowVatRate: string;
    rowStart: string;
    rowEnd: string;
    unitPrice: string;
    articleName: string;
  };
}

/** A row as the document starts it, before its elements are read. */
export function emptyRow(index: number): EInvoiceRow {
  return {
    index,
    subBlock: false,
    articleName: '',
    quantities: [],
    startDate: null,
    endDate: null,
    unitPrice: null,
    accountDimension: null,
    freeTexts: [],
    vatRate: null,
    vatExcluded: null,
    vatAmount: null,
    amount: null,
  };
}
