import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Lang, Permission } from '@kulu/shared';
import { requestLanguage } from '../plugins/errors.js';
import type { Scope } from './scope.js';
import type { XlsxSheet } from './xlsx/index.js';
import { sendWorkbook } from './xlsx/http.js';

/** A report: its list and its workbook, from the request's query, Scope and language. */
export interface ReportDef<Q extends z.ZodType, E extends z.ZodType = Q> {
  /** The list's path; the workbook is `<path>/export`. */
  path: string;
  permission: Permission;
  /** The workbook's permission when it differs from the list's. */
  exportPermission?: Permission;
  tags: string[];
  summary: string;
  exportSummary: string;
  querystring: Q;
  /** The workbook's query when it differs from the list's (e.g. without paging). */
  exportQuerystring?: E;
  response: z.ZodType;
  list: (scope: Scope, q: z.output<Q>, lang: Lang) => Promise<unknown>;
  workbook: (scope: Scope, q: z.output<E>, lang: Lang) => Promise<{ fileName: string; sheet: XlsxSheet }>;
}

/**
 * Registers a report's two routes: `GET <path>` → the list of the query (paged or whole, as the
 * report answers), and `GET <path>/export` → the workbook of exactly what the filters show (its
 * first rows are read before the file starts, so the report's checks still answer with their
 * status). Both read through the request's Scope, under the report's permission.
 */
export function reportRoutes<Q extends z.ZodType, E extends z.ZodType = Q>(
  app: FastifyInstance,
  def: ReportDef<Q, E>,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { tags } = def;
  r.get(
    def.path,
    {
      config: { permission: def.permission },
      schema: { tags, summary: def.summary, querystring: def.querystring, response: { 200: def.response } },
    },
    async (req) => def.list(req.scope, req.query as z.output<Q>, requestLanguage(req)),
  );
  r.get(
    `${def.path}/export`,
    {
      config: { permission: def.exportPermission ?? def.permission },
      schema: { tags, summary: def.exportSummary, querystring: def.exportQuerystring ?? def.querystring },
    },
    async (req, reply) => {
      const { fileName, sheet } = await def.workbook(
        req.scope,
        req.query as z.output<E>,
        requestLanguage(req),
      );
      return sendWorkbook(req, reply, { fileName, sheets: [sheet] });
    },
  );
}
