import { InvoiceError, NotAValidInvoiceError, PdfReadError } from './errors.js';
import { checkTextBounds, TextTooLongError } from './limits.js';
import { dna } from './operators/dna.js';
import { elisa } from './operators/elisa.js';
import { telia } from './operators/telia.js';
import type { OperatorParser } from './operators/types.js';
import { extractText, type ExtractOptions } from './text/extract.js';
import type { ParsedInvoice, TextDocument } from './types.js';

/** Detection scores below this are "not a valid invoice". */
export const DETECTION_THRESHOLD = 0.7;

const parsers = new Map<string, OperatorParser>();

/** Registers an operator layout (the three built-in ones are registered on import). */
export function registerOperator(parser: OperatorParser): void {
  if (parsers.has(parser.id)) throw new Error(`operator "${parser.id}" is already registered`);
  parsers.set(parser.id, parser);
}

export function operators(): OperatorParser[] {
  return [...parsers.values()];
}

export function getOperator(id: string): OperatorParser | undefined {
  return parsers.get(id.toLowerCase());
}

for (const p of [elisa, telia, dna]) registerOperator(p);

/** The best-matching layout, or a NotAValidInvoiceError. */
export function detectOperator(doc: TextDocument): OperatorParser {
  if (!doc.pages.some((p) => p.lines.length > 0)) {
    throw new NotAValidInvoiceError('the PDF contains no text (an image-only or scanned document?)');
  }
  let best: OperatorParser | undefined;
  let bestScore = 0;
  for (const parser of parsers.values()) {
    const score = parser.detect(doc);
    if (score > bestScore) {
      best = parser;
      bestScore = score;
    }
  }
  if (!best || bestScore < DETECTION_THRESHOLD) {
    throw new NotAValidInvoiceError(
      `no known operator layout (${operators()
        .map((p) => p.name)
        .join(', ')}) matches the document`,
    );
  }
  return best;
}

/** Parses positioned text: detects the operator, parses, reconciles and bounds its texts (limits.ts). */
export function parseDocument(doc: TextDocument): ParsedInvoice {
  return checkTextBounds(detectOperator(doc).parse(doc));
}

/**
 * PDF bytes → a reconciled structured invoice. Throws an InvoiceError subclass on any bad input. A
 * damaged file (e.g. truncated) that the reader repaired is accepted only when it still parses and
 * reconciles; otherwise it is `unreadable_pdf`, not "not an invoice".
 */
export async function parseInvoice(pdf: Uint8Array, options?: ExtractOptions): Promise<ParsedInvoice> {
  const doc = await extractText(pdf, options);
  try {
    return parseDocument(doc);
  } catch (err) {
    if (
      !doc.repaired ||
      !(err instanceof InvoiceError) ||
      err instanceof PdfReadError ||
      err instanceof TextTooLongError
    )
      throw err;
    throw new PdfReadError(
      'unreadable_pdf',
      `the PDF is damaged (truncated or corrupt) and no invoice can be read from it: ${err.message}`,
      { cause: err },
    );
  }
}
