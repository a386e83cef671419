import { inflateRawSync } from 'node:zlib';
import type { DocumentType } from '@kulu/shared';

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

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The entries of a ZIP's central directory, or null when it can't be read. */
function zipEntries(data: Buffer): ZipEntry[] | null {
  // The end-of-central-directory record: within the last 22 + 65535 bytes (its comment).
  const from = Math.max(0, data.length - 22 - 0xffff);
  let eocd = -1;
  for (let i = data.length - 22; i >= from; i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return null;
  const count = data.readUInt16LE(eocd + 10);
  let p = data.readUInt32LE(eocd + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > data.length || data.readUInt32LE(p) !== 0x02014b50) return null;
    const nameLength = data.readUInt16LE(p + 28);
    const extraLength = data.readUInt16LE(p + 30);
    const commentLength = data.readUInt16LE(p + 32);
    if (p + 46 + nameLength > data.length) return null;
    entries.push({
      name: data.toString('utf8', p + 46, p + 46 + nameLength),
      method: data.readUInt16LE(p + 10),
      compressedSize: data.readUInt32LE(p + 20),
      localOffset: data.readUInt32LE(p + 42),
    });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** An entry's content (stored or deflated), at most `max` bytes; null when unreadable. */
function zipContent(data: Buffer, e: ZipEntry, max: number): Buffer | null {
  const at = e.localOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== 0x04034b50) return null;
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const raw = data.subarray(start, start + e.compressedSize);
  try {
    if (e.method === 0) return raw.subarray(0, max);
    if (e.method === 8) return inflateRawSync(raw, { maxOutputLength: max });
  } catch {
    return null;
  }
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
