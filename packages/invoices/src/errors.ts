export type InvoiceErrorCode =
  | 'not_a_pdf'
  | 'unreadable_pdf'
  | 'encrypted_pdf'
  | 'not_a_valid_invoice'
  | 'malformed_invoice'
  | 'reconciliation_failed';

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

/** Totals do not add up; `differenceCents` is printed minus computed. */
export class ReconciliationError extends InvoiceError {
  readonly differenceCents: number;
  constructor(message: string, differenceCents: number) {
    super('reconciliation_failed', message);
    this.name = 'ReconciliationError';
    this.differenceCents = differenceCents;
  }
}
