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

/**
 * Streams the rows as an .xlsx (exceljs streaming writer): headers in the caller's language,
 * amounts as numbers, every text cell made safe against formula injection.
 */
export async function sendXlsx(
  req: FastifyRequest,
  reply: FastifyReply,
  meta: ResourceMeta,
  rows: AsyncIterable<Row[]>,
  lang: Lang,
) {
  // The first batch is read before anything is sent: a query the database refuses still gets its
  // error answer (a 400 for a value it cannot take) rather than a cut-off file.
  const batches = rows[Symbol.asyncIterator]();
  const first = await batches.next();
  const stream = new PassThrough();
  const date = new Date().toISOString().slice(0, 10);
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${meta.path}-${date}.xlsx"`)
    .header('cache-control', 'no-store');

  const write = async () => {
    // Loaded on the first export only: exceljs costs the idle server about 18 MB.
    const { default: ExcelJS } = await import('exceljs');
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: false, useStyles: true });
    const title = masterLabel(`masters.titles.${meta.key}`, lang);
    const ws = wb.addWorksheet(title.slice(0, 31));
    ws.columns = meta.columns.map((c) => ({
      header: masterLabel(c.labelKey, lang),
      key: c.key,
      width: Math.max(12, Math.min(40, masterLabel(c.labelKey, lang).length + 4)),
      style:
        c.type === 'money' || c.type === 'percent'
          ? { numFmt: c.decimals === 4 ? '0.0000' : '0.00' }
          : c.type === 'integer'
            ? { numFmt: '0' }
            : {},
    }));
    ws.getRow(1).font = { bold: true };
    for (let next = first; !next.done; next = await batches.next()) {
      for (const row of next.value) {
        ws.addRow(meta.columns.map((c) => cellValue(c, row[c.key], lang))).commit();
      }
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
