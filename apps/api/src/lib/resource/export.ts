import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { masterLabel, type Lang, type MasterColumn } from '@kulu/shared';
import type { ResourceMeta, Row } from './resource.service.js';

/**
 * Security baseline: a text cell that a spreadsheet could read as a formula starts with a quote.
 * A plain number or phone number (+358 40 123 4567, -12.50) carries no formula and stays as is.
 */
export const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d[\d .,]*$/;
export const safeText = (s: string) => (FORMULA_START.test(s) && !PLAIN_NUMBER.test(s) ? `'${s}` : s);

function cellValue(col: MasterColumn, v: unknown, lang: Lang): string | number | null {
  if (v === null || v === undefined) return null;
  switch (col.type) {
    case 'money':
    case 'percent':
    case 'integer':
      return Number(v);
    case 'boolean':
      return masterLabel(`masters.enums.boolean.${v ? 'true' : 'false'}`, lang);
    case 'enum': {
      const opt = col.options?.find((o) => o.value === v);
      return opt ? masterLabel(opt.labelKey, lang) : safeText(String(v));
    }
    default:
      return safeText(String(v));
  }
}

/** A column of a streamed sheet: its header (already in the caller's language) and number format. */
export interface XlsxColumn {
  header: string;
  width?: number;
  numFmt?: string;
}

/**
 * Streams rows as an .xlsx (exceljs streaming writer, loaded on the first export: it costs the idle
 * server about 18 MB). The first batch is read before anything is sent, so a query the database
 * refuses still gets its error answer (a 400 for a value it cannot take) rather than a cut-off file.
 * Text cells must already be made safe (`safeText`).
 */
export async function streamXlsx(
  req: FastifyRequest,
  reply: FastifyReply,
  opts: {
    fileName: string;
    sheet: string;
    columns: XlsxColumn[];
    rows: AsyncIterable<Array<Array<string | number | null>>>;
    /** Frozen header row and an autofilter over the columns. */
    table?: boolean;
  },
) {
  const batches = opts.rows[Symbol.asyncIterator]();
  const first = await batches.next();
  const stream = new PassThrough();
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${opts.fileName}"`)
    .header('cache-control', 'no-store');

  const write = async () => {
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
    const ws = wb.addWorksheet(
      opts.sheet.slice(0, 31),
      opts.table ? { views: [{ state: 'frozen', ySplit: 1 }] } : undefined,
    );
    ws.columns = opts.columns.map((c, i) => ({
      header: c.header,
      key: String(i),
      width: c.width ?? Math.max(12, Math.min(40, c.header.length + 4)),
      style: c.numFmt ? { numFmt: c.numFmt } : {},
    }));
    if (opts.table)
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: opts.columns.length } };
    ws.getRow(1).font = { bold: true };
    for (let next = first; !next.done; next = await batches.next()) {
      for (const row of next.value) ws.addRow(row).commit();
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((err: unknown) => {
    req.log.error({ err }, 'export failed');
    stream.destroy(err as Error);
  });
  return reply.send(stream);
}

/**
 * Streams the rows of a master as an .xlsx: headers in the caller's language, amounts as numbers,
 * every text cell made safe against formula injection.
 */
export async function sendXlsx(
  req: FastifyRequest,
  reply: FastifyReply,
  meta: ResourceMeta,
  rows: AsyncIterable<Row[]>,
  lang: Lang,
) {
  const date = new Date().toISOString().slice(0, 10);
  async function* cells() {
    for await (const batch of rows) {
      yield batch.map((row) => meta.columns.map((c) => cellValue(c, row[c.key], lang)));
    }
  }
  return streamXlsx(req, reply, {
    fileName: `${meta.path}-${date}.xlsx`,
    sheet: masterLabel(`masters.titles.${meta.key}`, lang),
    columns: meta.columns.map((c) => ({
      header: masterLabel(c.labelKey, lang),
      numFmt:
        c.type === 'money' || c.type === 'percent'
          ? c.decimals === 4
            ? '0.0000'
            : '0.00'
          : c.type === 'integer'
            ? '0'
            : undefined,
    })),
    rows: cells(),
  });
}
