import { once } from 'node:events';
import type { Writable } from 'node:stream';

/**
 * The one workbook writer of every Excel file Kulu makes (masters, reports, the report archive):
 * exceljs's streaming writer, independent of HTTP. Rows arrive in batches from an async source and
 * are committed as they come, so memory stays flat whatever the row count (`npm run bench -- export`).
 */

/** A cell: text (made safe with `safeText`), a number, or empty. */
export type XlsxCell = string | number | null;

/** Number formats used across the workbooks. */
export const NUM_FMT = {
  euro: '#,##0.00 "€"',
  /** Unit prices with four decimals (masters). */
  euro4: '0.0000',
  decimal: '#,##0.00',
  money: '0.00',
  integer: '0',
} as const;

/** A column of a sheet: its header (already in the reader's language) and number format. */
export interface XlsxColumn {
  header: string;
  width?: number;
  numFmt?: string;
}

export interface XlsxSheet {
  /** Cut to Excel's 31 characters. */
  name: string;
  columns: XlsxColumn[];
  rows: AsyncIterable<XlsxCell[][]> | Iterable<XlsxCell[][]>;
  /** Frozen header row and an autofilter over the columns. */
  table?: boolean;
}

/** A sheet's rows from batches of items, batch by batch, each item written as `row` makes it. */
export async function* rowsOf<T>(
  batches: AsyncIterable<T[]>,
  row: (item: T) => XlsxCell[],
): AsyncGenerator<XlsxCell[][]> {
  for await (const batch of batches) yield batch.map(row);
}

/**
 * Security baseline: a text cell that a spreadsheet could read as a formula starts with a quote.
 * A plain number or phone number (+358 40 123 4567, -12.50) carries no formula and stays as is.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d[\d .,]*$/;
export const safeText = (s: string) => (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s);
/** `safeText` for an optional value. */
export const safeOrNull = (s: string | null | undefined) => (s == null ? null : safeText(s));

/**
 * exceljs 4.4 hands a sheet's XML to the zip (archiver) without waiting for it: the sheet's buffer
 * (`StreamBuf`) writes into the zip entry's stream ignoring its backpressure, so rows produced faster
 * than they are compressed and written out pile up in memory: the whole workbook, uncompressed, for a
 * fast query and a slow output (measured: +150 MB at 100,000 rows). Between batches this waits until
 * the entry's stream has taken what it was given, so memory stays flat whatever the row count.
 */
async function zipCaughtUp(ws: unknown): Promise<void> {
  // The entry's stream is archiver's `readable-stream` PassThrough: its state, not Node's getters.
  type Entry = Writable & { _writableState?: { needDrain?: boolean; length?: number } };
  const pipes = (ws as { stream?: { pipes?: Entry[] } }).stream?.pipes ?? [];
  for (const pipe of pipes) {
    while (pipe._writableState?.needDrain) await once(pipe, 'drain');
  }
}

/** Excel's characters per cell. */
const CELL_MAX = 32_767;

/**
 * Writes the sheets, in order, as one .xlsx to `out` and resolves once the workbook is complete
 * (rejects, leaving `out` to the caller, when a row source throws). exceljs is loaded on the first
 * workbook: it costs an idle server about 18 MB.
 */
export async function writeWorkbook(out: Writable, sheets: XlsxSheet[]): Promise<{ rows: number }> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: true,
  });
  let rows = 0;
  for (const sheet of sheets) {
    const ws = wb.addWorksheet(
      sheet.name.slice(0, 31),
      sheet.table ? { views: [{ state: 'frozen', ySplit: 1 }] } : undefined,
    );
    ws.columns = sheet.columns.map((c, i) => ({
      header: c.header,
      key: String(i),
      width: c.width ?? Math.max(12, Math.min(40, c.header.length + 4)),
      style: c.numFmt ? { numFmt: c.numFmt } : {},
    }));
    if (sheet.table)
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: sheet.columns.length } };
    ws.getRow(1).font = { bold: true };
    for await (const batch of sheet.rows) {
      for (const row of batch) {
        ws.addRow(
          row.map((v) => (typeof v === 'string' && v.length > CELL_MAX ? v.slice(0, CELL_MAX) : v)),
        ).commit();
      }
      rows += batch.length;
      await zipCaughtUp(ws);
    }
    ws.commit();
  }
  await wb.commit();
  return { rows };
}

/**
 * Peeks at the first batch of a row source, so that a caller can answer a query's error (a 400, a
 * 404 from the Scope) before any byte of the file is sent; the returned source yields every batch.
 */
export async function peeked<T>(rows: AsyncIterable<T> | Iterable<T>): Promise<AsyncIterable<T>> {
  const it =
    Symbol.asyncIterator in rows
      ? (rows as AsyncIterable<T>)[Symbol.asyncIterator]()
      : (rows as Iterable<T>)[Symbol.iterator]();
  const first = await it.next();
  return {
    async *[Symbol.asyncIterator]() {
      for (let next = first; !next.done; next = await it.next()) yield next.value;
    },
  };
}
