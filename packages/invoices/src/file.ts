/**
 * One entry for every invoice file Kulu reads, judged by content (never by name or MIME type): a
 * PDF of a known operator layout, or a Finvoice e-invoice (XML).
 */
import { UnknownFileTypeError } from './errors.js';
import { parseFinvoice } from './finvoice/parse.js';
import type { ParsedInvoice } from './types.js';

export type InvoiceFileFormat = 'pdf' | 'finvoice';

/** How far into the file the sniffer looks. */
const SNIFF_BYTES = 1024;

/**
 * The file's format by its first KiB: `xml` when it starts (after an optional UTF-8 or UTF-16 byte
 * order mark and whitespace) with `<`; `pdf` when `%PDF-` appears in the first KiB (as PDF readers
 * allow, and as the upload's looksLikePdf judges); else null.
 */
export function sniffInvoiceFormat(bytes: Uint8Array): 'pdf' | 'xml' | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe)) {
    // UTF-16: `<` is one byte of the first code unit (the reader refuses the charset with its reason)
    const lt = head[0] === 0xfe ? head[3] === 0x3c && head[2] === 0 : head[2] === 0x3c && head[3] === 0;
    if (lt) return 'xml';
  }
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d))
    i++;
  const startsWithPdf = Buffer.from(head.subarray(i, i + 5)).toString('latin1') === '%PDF-';
  if (!startsWithPdf && head[i] === 0x3c) return 'xml';
  if (Buffer.from(head).toString('latin1').includes('%PDF-')) return 'pdf';
  return null;
}

/**
 * Invoice file bytes → the structured invoice and the format it was read from: a PDF goes to
 * `parseInvoice` (loaded on first use), XML to `parseFinvoice`; anything else is an
 * UnknownFileTypeError (`unknown_file_type`). Every refusal is an InvoiceError subclass.
 */
export async function parseInvoiceFile(
  bytes: Uint8Array,
): Promise<{ format: InvoiceFileFormat; invoice: ParsedInvoice }> {
  const format = sniffInvoiceFormat(bytes);
  if (format === 'xml') return { format: 'finvoice', invoice: parseFinvoice(bytes) };
  if (format === 'pdf') {
    const { parseInvoice } = await import('./registry.js');
    return { format: 'pdf', invoice: await parseInvoice(bytes) };
  }
  throw new UnknownFileTypeError(
    bytes.length === 0
      ? 'unknown file type: the file is empty'
      : 'unknown file type: the file is neither a PDF (no %PDF- header) nor an XML e-invoice',
  );
}
