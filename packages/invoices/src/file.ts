/**
 * One entry for every invoice file Kulu reads, judged by content (never by name or MIME type): a
 * PDF of a known operator layout, a Finvoice e-invoice or a Peppol BIS Billing 3.0 (UBL 2.1)
 * e-invoice. `sniffInvoiceFormat` is the one sniffer: the upload, the parse child and the CLI all
 * use it (docs/decisions/0030-peppol.md).
 */
import { UnknownFileTypeError } from './errors.js';
import { parseFinvoice } from './finvoice/parse.js';
import { parsePeppol } from './peppol/parse.js';
import { xmlRootOf } from './peppol/root.js';
import type { ParsedInvoice } from './types.js';

export type InvoiceFileFormat = 'pdf' | 'finvoice' | 'peppol';

/** How far into the file the sniffer looks for `%PDF-`. */
const SNIFF_BYTES = 1024;

/**
 * The file's format by its first bytes, or null when it is none Kulu reads:
 * - `pdf` when `%PDF-` appears in the first KiB (as PDF readers allow) and the file does not start
 *   with `<`;
 * - XML (after an optional UTF-8 or UTF-16 byte order mark and white space, `<`): `peppol` when its
 *   root element (found in the first 8 KiB past the declaration, comments, processing instructions
 *   and DOCTYPE) is in a UBL namespace (an `Invoice`, a `CreditNote`; any other UBL document the
 *   Peppol reader refuses with its own reason), or a Peppol `StandardBusinessDocument` transport
 *   frame; every other XML is `finvoice` (a Finvoice file, a SOAP-framed one, or XML the
 *   Finvoice reader refuses with its own not-Finvoice reason).
 * It may be given only the file's first bytes (a streamed upload's first chunk): 8 KiB are enough.
 */
export function sniffInvoiceFormat(bytes: Uint8Array): InvoiceFileFormat | null {
  const head = bytes.subarray(0, SNIFF_BYTES);
  let i = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) i = 3;
  else if ((head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe)) {
    // UTF-16: `<` is one byte of the first code unit (the reader refuses the charset with its reason)
    const lt = head[0] === 0xfe ? head[3] === 0x3c && head[2] === 0 : head[2] === 0x3c && head[3] === 0;
    if (lt) return 'finvoice';
  }
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d))
    i++;
  const startsWithPdf = Buffer.from(head.subarray(i, i + 5)).toString('latin1') === '%PDF-';
  if (!startsWithPdf && head[i] === 0x3c) return xmlRootOf(bytes)?.ubl ? 'peppol' : 'finvoice';
  if (Buffer.from(head).toString('latin1').includes('%PDF-')) return 'pdf';
  return null;
}

/**
 * Invoice file bytes → the structured invoice and the format it was read from: a PDF goes to
 * `parseInvoice` (loaded on first use), Finvoice XML to `parseFinvoice`, Peppol (UBL) XML to
 * `parsePeppol` (both synchronous); anything else is an UnknownFileTypeError (`unknown_file_type`).
 * Every refusal is an InvoiceError subclass.
 */
export async function parseInvoiceFile(
  bytes: Uint8Array,
): Promise<{ format: InvoiceFileFormat; invoice: ParsedInvoice }> {
  const format = sniffInvoiceFormat(bytes);
  if (format === 'finvoice') return { format, invoice: parseFinvoice(bytes) };
  if (format === 'peppol') return { format, invoice: parsePeppol(bytes) };
  if (format === 'pdf') {
    const { parseInvoice } = await import('./registry.js');
    return { format, invoice: await parseInvoice(bytes) };
  }
  throw new UnknownFileTypeError(
    bytes.length === 0
      ? 'unknown file type: the file is empty'
      : 'unknown file type: the file is neither a PDF (no %PDF- header) nor an XML e-invoice',
  );
}
