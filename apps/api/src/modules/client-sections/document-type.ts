import type { DocumentType } from '@kulu/shared';
import { zipContent, zipEntries } from '../../lib/zip.js';

/**
 * The type of an operator contract document, told by its content (docs/shared security.md:
 * "Documents: the allowed types of the spec, checked by content"), never by the browser's header:
 *  - pdf: `%PDF-` at the start;
 *  - doc / xls: an OLE2 compound file (D0 CF 11 E0 A1 B1 1A E1) holding a `WordDocument`
 *    (doc) or `Workbook` / `Book` (xls) stream;
 *  - docx / xlsx: a ZIP whose central directory lists `[Content_Types].xml` and the main part
 *    (`word/document.xml` / `xl/workbook.xml`), and whose `[Content_Types].xml` declares that
 *    part's main content type (macro-enabled .docm / .xlsm declare another and are refused);
 *  - csv: anything else that is valid UTF-8 text without NUL bytes.
 * null: none of these.
 */
export function sniffDocument(data: Buffer): DocumentType | null {
  if (!data.length) return null;
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (data.subarray(0, 8).equals(OLE2_MAGIC)) return oleType(data);
  if (data.subarray(0, 4).equals(ZIP_MAGIC)) return ooxmlType(data);
  return isUtf8Text(data) ? 'csv' : null;
}

/** The MIME type a document is served with. */
export const DOCUMENT_MIME: Record<DocumentType, string> = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
};

const OLE2_MAGIC = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const ZIP_MAGIC = Buffer.from('504b0304', 'hex');
const utf16 = (s: string) => Buffer.from(s, 'utf16le');

/** doc or xls by the stream names of the compound file's directory (UTF-16LE). */
function oleType(data: Buffer): DocumentType | null {
  if (data.includes(utf16('WordDocument'))) return 'doc';
  if (data.includes(utf16('Workbook')) || data.includes(utf16('Book\0'))) return 'xls';
  return null;
}

const MAIN_PART = {
  docx: {
    part: 'word/document.xml',
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
  },
  xlsx: {
    part: 'xl/workbook.xml',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
  },
} as const;

function ooxmlType(data: Buffer): DocumentType | null {
  const entries = zipEntries(data);
  if (!entries) return null;
  const types = entries.find((e) => e.name === '[Content_Types].xml');
  if (!types) return null;
  const xml = zipContent(data, types, 1024 * 1024)?.toString('utf8');
  if (!xml) return null;
  for (const kind of ['docx', 'xlsx'] as const) {
    const { part, type } = MAIN_PART[kind];
    if (entries.some((e) => e.name === part) && xml.includes(type)) return kind;
  }
  return null;
}

function isUtf8Text(data: Buffer): boolean {
  if (data.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data);
    return true;
  } catch {
    return false;
  }
}
