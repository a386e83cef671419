import type { FastifyReply, FastifyRequest } from 'fastify';
import { helsinkiDay, masterLabel, type Lang, type MasterColumn } from '@kulu/shared';
import { NUM_FMT, rowsOf, safeText } from '../xlsx/index.js';
import { streamXlsx } from '../xlsx/http.js';
import type { ResourceMeta, Row } from './resource.service.js';

export { FORMULA_START, safeText } from '../xlsx/index.js';
export { streamXlsx } from '../xlsx/http.js';

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
  const date = helsinkiDay(new Date());
  const cells = () => rowsOf(rows, (row) => meta.columns.map((c) => cellValue(c, row[c.key], lang)));
  return streamXlsx(req, reply, {
    fileName: `${meta.path}-${date}.xlsx`,
    sheet: masterLabel(`masters.titles.${meta.key}`, lang),
    columns: meta.columns.map((c) => ({
      header: masterLabel(c.labelKey, lang),
      numFmt:
        c.type === 'money' || c.type === 'percent'
          ? c.decimals === 4
            ? NUM_FMT.euro4
            : NUM_FMT.money
          : c.type === 'integer'
            ? NUM_FMT.integer
            : undefined,
    })),
    rows: cells(),
  });
}
