export type InvoiceErrorCode =
  | 'not_a_pdf'
  | 'unreadable_pdf'
  | 'encrypted_pdf'
  | 'not_a_valid_invoice'
  | 'malformed_invoice'
  | 'reconciliation_failed'
  // a text longer than its limit (src/limits.ts), in either reader
  | 'text_too_long'
  // Finvoice e-invoices (src/finvoice) and format detection (src/file.ts)
  | 'unknown_file_type'
  | 'xml_not_well_formed'
  | 'xml_doctype_refused'
  | 'xml_unsupported_charset'
  | 'xml_charset_mismatch'
  | 'xml_several_documents'
  | 'xml_too_deep'
  | 'xml_too_large'
  | 'not_finvoice'
  | 'finvoice_unsupported_version'
  | 'finvoice_unsupported_type'
  | 'finvoice_unknown_seller'
  | 'finvoice_rows_mismatch'
  | 'finvoice_vat_mismatch'
  // Peppol BIS Billing 3.0 (UBL 2.1) e-invoices (src/peppol)
  | 'not_peppol'
  | 'peppol_unsupported_version'
  | 'peppol_unsupported_type'
  | 'peppol_unknown_seller'
  | 'peppol_unsupported_currency';

/** Base class of every error this package throws on bad input. */
export class InvoiceError extends Error {
  readonly code: InvoiceErrorCode;
  constructor(code: InvoiceErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvoiceError';
    this.code = code;
  }
}

/** The file is not a PDF, or pdf.js could not read it. */
export class PdfReadError extends InvoiceError {
  constructor(
    code: 'not_a_pdf' | 'unreadable_pdf' | 'encrypted_pdf',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'PdfReadError';
  }
}

/** A readable PDF that is not an invoice of a known operator layout. */
export class NotAValidInvoiceError extends InvoiceError {
  constructor(detail?: string) {
    super('not_a_valid_invoice', detail ? `not a valid invoice: ${detail}` : 'not a valid invoice');
    this.name = 'NotAValidInvoiceError';
  }
}

/** The operator was recognised but the invoice does not follow its layout (a field or value is missing or unreadable). */
export class MalformedInvoiceError extends InvoiceError {
  constructor(message: string) {
    super('malformed_invoice', message);
    this.name = 'MalformedInvoiceError';
  }
}

/**
 * Totals do not add up; `differenceCents` is printed minus computed. Finvoice files say which sum is
 * off: `finvoice_rows_mismatch` (the rows against the total excluding VAT), `finvoice_vat_mismatch`
 * (the VAT per rate against the VAT total).
 */
export class ReconciliationError extends InvoiceError {
  readonly differenceCents: number;
  constructor(
    message: string,
    differenceCents: number,
    code:
      'reconciliation_failed' | 'finvoice_rows_mismatch' | 'finvoice_vat_mismatch' = 'reconciliation_failed',
  ) {
    super(code, message);
    this.name = 'ReconciliationError';
    this.differenceCents = differenceCents;
  }
}

/** The file is neither a PDF nor XML (judged by its first bytes, see `sniffInvoiceFormat`). */
export class UnknownFileTypeError extends InvoiceError {
  constructor(message: string) {
    super('unknown_file_type', message);
    this.name = 'UnknownFileTypeError';
  }
}

/** An XML file that is refused before or while it is read (see src/finvoice/xml.ts). */
export class XmlReadError extends InvoiceError {
  constructor(
    code:
      | 'xml_not_well_formed'
      | 'xml_doctype_refused'
      | 'xml_unsupported_charset'
      | 'xml_charset_mismatch'
      | 'xml_several_documents'
      | 'xml_too_deep'
      | 'xml_too_large',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'XmlReadError';
  }
}

/** Well-formed XML that is not a Finvoice invoice Kulu reads (see src/finvoice/parse.ts). */
export class FinvoiceError extends InvoiceError {
  constructor(
    code:
      | 'not_finvoice'
      | 'finvoice_unsupported_version'
      | 'finvoice_unsupported_type'
      | 'finvoice_unknown_seller',
    message: string,
  ) {
    super(code, message);
    this.name = 'FinvoiceError';
  }
}

/** Well-formed XML that is not a Peppol BIS Billing 3.0 invoice Kulu reads (see src/peppol/parse.ts). */
export class PeppolError extends InvoiceError {
  constructor(
    code:
      | 'not_peppol'
      | 'peppol_unsupported_version'
      | 'peppol_unsupported_type'
      | 'peppol_unknown_seller'
      | 'peppol_unsupported_currency',
    message: string,
  ) {
    super(code, message);
    this.name = 'PeppolError';
  }
}
