import { IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS } from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { readFirstSheet, XlsxReadError } from '../../lib/xlsx/read.js';

/**
 * Reading an import file (Invoice User Management): a CSV file (`;` or `,` separated, quoted
 * fields with doubled quotes and line breaks, UTF-8 with or without a byte order mark, or
 * Windows-1252 as older Excel saves it) or an Excel workbook (.xlsx, its first sheet). The kind is
 * told by content, not by name. Answers the rows as arrays of cell texts, the header first;
 * anything unreadable is a 400 with a message, never a 500.
 */

/**
 * Most bytes the parts of an .xlsx that are read may really inflate to, together (counted while
 * inflating; the sizes the zip declares are not believed): a small zip can't take the memory.
 */
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

const XLSX_REFUSALS = {
  unreadable: 'importFileType',
  tooLarge: 'importTooLarge',
  tooManyRows: 'importTooManyRows',
  tooManyColumns: 'importTooManyColumns',
} as const;

/**
 * The first sheet of an .xlsx, read as it inflates (lib/xlsx/read.ts): the bytes really inflated
 * are counted and reading stops at the first value past row IMPORT_MAX_ROWS + 1 (the header and
 * the data rows, numbered as the sheet numbers them, as the CSV path counts them), so neither a
 * zip that lies about its sizes nor a sheet of millions of rows takes the server's memory.
 */
async function readXlsx(data: Buffer): Promise<string[][]> {
  try {
    return await readFirstSheet(data, {
      maxInflated: XLSX_MAX_INFLATED,
      maxRows: IMPORT_MAX_ROWS + 1,
      maxColumns: IMPORT_MAX_COLUMNS,
    });
  } catch (err) {
    if (err instanceof XlsxReadError) throw new AppError(400, XLSX_REFUSALS[err.reason]);
    throw err;
  }
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
