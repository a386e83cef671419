import type { TextDocument, ParsedInvoice } from '../types.js';

/**
 * One operator invoice layout. Adding an operator = a new module implementing this (usually through
 * `createLayoutParser`) registered in `registry.ts`, plus its fixtures.
 */
export interface OperatorParser {
  /** Stable id, e.g. `elisa` (used by the CLI and the generator). */
  readonly id: string;
  /** The operator as it appears in the output (`Elisa`). */
  readonly name: string;
  /** How sure this layout is that the document is one of its invoices: 0 (no) … 1 (certain). */
  detect(doc: TextDocument): number;
  /** Parses and reconciles; throws an InvoiceError subclass when the invoice is malformed or does not add up. */
  parse(doc: TextDocument): ParsedInvoice;
}
