import { IMPORT_MAX_ROWS } from '@kulu/shared';
import { AppError } from '../../lib/errors.js';

/**
 * Reading an import file (Invoice User Management): a CSV file (`;` or `,` separated, quoted
 * fields with doubled quotes and line breaks, UTF-8 with or without a byte order mark, or
 * Windows-1252 as older Excel saves it) or an Excel workbook (.xlsx, its first sheet). The kind is
 * told by content, not by name. Answers the rows as arrays of cell texts, the header first;
 * anything unreadable is a 400 with a message, never a 500.
 */

/** Most bytes an .xlsx may inflate to (its parts together): a small zip can't take the memory. */
const XLSX_MAX_INFLATED = 64 * 1024 * 1024;

/** Parses CSV text (RFC 4180, separator `;` or `,` chosen by the header line). */
export function parseCsv(text: string): string[][] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const sep = detectSeparator(src);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const endRow = () => {
    row.push(cell);
    cell = '';
    // A blank line stays a row (with no cells), so that row numbers are the file's own.
    rows.push(row.length === 1 && row[0] === '' ? [] : row);
    row = [];
  };
  while (i < src.length) {
    const c = src[i];
    if (quoted) {
      if (c === '"') {
        if (src[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
      i++;
    } else if (c === sep) {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' || c === '\n') {
      endRow();
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
    } else {
      cell += c;
      i++;
    }
    if (rows.length > IMPORT_MAX_ROWS + 1) throw new AppError(400, 'importTooManyRows');
  }
  if (cell !== '' || row.length) endRow();
  return rows;
}

/** `;` (Finnish Excel's CSV) or `,`: whichever the first line has more of outside quotes. */
function detectSeparator(src: string): ';' | ',' {
  let semi = 0;
  let comma = 0;
  let quoted = false;
  for (const c of src) {
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ';') semi++;
    else if (!quoted && c === ',') comma++;
  }
  return semi >= comma && semi > 0 ? ';' : ',';
}

/** UTF-8 when the bytes are valid UTF-8, else Windows-1252 (Excel's "CSV" on Finnish Windows). */
function decodeText(data: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return new TextDecoder('windows-1252').decode(data);
  }
}

const isZip = (data: Buffer) => data.length >= 4 && data.readUInt32LE(0) === 0x04034b50;

/**
 * Sum of the uncompressed sizes the zip's central directory declares; throws for a zip whose
 * directory can't be read. (The parts are inflated by exceljs, which trusts these sizes no more
 * than we do, but a declared bomb is refused before any inflating.)
 */
function inflatedSize(data: Buffer): number {
  const min = Math.max(0, data.length - 65_557);
  for (let p = data.length - 22; p >= min; p--) {
    if (data.readUInt32LE(p) !== 0x06054b50) continue;
    const entries = data.readUInt16LE(p + 10);
    let at = data.readUInt32LE(p + 16);
    let total = 0;
    for (let n = 0; n < entries; n++) {
      if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) throw new Error('bad zip');
      total += data.readUInt32LE(at + 24);
      at += 46 + data.readUInt16LE(at + 28) + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    }
    return total;
  }
  throw new Error('no zip directory');
}

/** A cell's value as text: numbers as typed, dates as YYYY-MM-DD, rich text and formulas by their text. */
function cellText(v: unknown): string {
  if (v == null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = v as { text?: unknown; richText?: { text: string }[]; result?: unknown; hyperlink?: string };
    if (Array.isArray(o.richText)) return o.richText.map((r) => r.text).join('');
    if (o.text !== undefined) return cellText(o.text);
    if (o.result !== undefined) return cellText(o.result);
  }
  return '';
}

async function readXlsx(data: Buffer): Promise<string[][]> {
  let size: number;
  try {
    size = inflatedSize(data);
  } catch {
    throw new AppError(400, 'importFileType');
  }
  if (size > XLSX_MAX_INFLATED) throw new AppError(400, 'importTooLarge');
  // Loaded on the first import only (exceljs costs the idle server memory), as the exports do.
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  try {
    await book.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new AppError(400, 'importFileType');
  }
  const sheet = book.worksheets[0];
  if (!sheet) throw new AppError(400, 'importEmpty');
  if (sheet.actualRowCount > IMPORT_MAX_ROWS + 1) throw new AppError(400, 'importTooManyRows');
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (r, n) => {
    const cells: string[] = [];
    const values = r.values as unknown[];
    for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
    // Keep the sheet's own row numbers: blank rows in between still count.
    rows[n - 1] = cells;
  });
  return Array.from(rows, (r) => r ?? []);
}

/**
 * The rows of an import file, header first, as the sheet numbers them (index 0 = row 1). Binary
 * files that are not an .xlsx (a PDF, an old .xls, an image) are refused by content.
 */
export async function readImportFile(data: Buffer): Promise<string[][]> {
  if (data.length === 0) throw new AppError(400, 'importEmpty');
  if (isZip(data)) return readXlsx(data);
  if (data.includes(0)) throw new AppError(400, 'importFileType');
  return parseCsv(decodeText(data));
}
