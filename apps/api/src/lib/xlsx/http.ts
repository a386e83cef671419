import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { peeked, writeWorkbook, type XlsxCell, type XlsxColumn, type XlsxSheet } from './index.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Answers with a workbook built by `writeWorkbook` while it is written. The first batch of the first
 * sheet is read before anything is sent, so a query the database refuses still gets its error answer
 * (a 400 for a value it cannot take) rather than a cut-off file.
 */
export async function sendWorkbook(
  req: FastifyRequest,
  reply: FastifyReply,
  opts: { fileName: string; sheets: XlsxSheet[] },
) {
  const [first, ...rest] = opts.sheets;
  const sheets = first ? [{ ...first, rows: await peeked(first.rows) }, ...rest] : [];
  const stream = new PassThrough();
  reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${opts.fileName}"`)
    .header('cache-control', 'no-store');
  writeWorkbook(stream, sheets).catch((err: unknown) => {
    req.log.error({ err }, 'export failed');
    stream.destroy(err as Error);
  });
  return reply.send(stream);
}

/** One sheet: the shape of the reports' and optimization's exports. */
export function streamXlsx(
  req: FastifyRequest,
  reply: FastifyReply,
  opts: {
    fileName: string;
    sheet: string;
    columns: XlsxColumn[];
    rows: AsyncIterable<XlsxCell[][]> | Iterable<XlsxCell[][]>;
    table?: boolean;
  },
) {
  return sendWorkbook(req, reply, {
    fileName: opts.fileName,
    sheets: [{ name: opts.sheet, columns: opts.columns, rows: opts.rows, table: opts.table }],
  });
}
