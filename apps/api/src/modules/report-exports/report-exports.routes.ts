import type { FastifyInstance } from 'fastify';
import {
  message,
  reportExportDeletedSchema,
  reportExportIdParams,
  reportExportListQuerySchema,
  reportExportListSchema,
  reportExportRequestSchema,
  reportExportSchema,
} from '@kulu/shared';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { XLSX_TYPE } from '../../lib/xlsx/http.js';
import { deleteExport, exportFile, listExports, scheduleExport } from './report-exports.service.js';
import { declareRoutes } from '../../lib/routes.js';

/**
 * The report archive / Downloads (issue 12): schedule an Excel export, follow it from Scheduled to
 * Ready or Failed, download it while it is kept, delete it. Each user sees their own exports.
 */
export async function reportExportsRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const route = declareRoutes(app, ['reports']);
  const config = { permission: 'downloads' as const };

  route.get(
    '/api/report-exports',
    config,
    {
      summary:
        "The caller's scheduled Excel exports, newest first: Scheduled, Ready (with the download date and until when it is kept) or Failed",
      querystring: reportExportListQuerySchema,
      response: { 200: reportExportListSchema },
    },
    async (req) => listExports(deps, currentUser(req), req.scope, req.query, requestLanguage(req)),
  );

  route.post(
    '/api/report-exports',
    config,
    {
      summary:
        'Schedule an Excel export of the report archive (all costs and usage, optimizable costs and usage, plan types, top users, optimized / un-optimized / no-usage users) for a client and month range; 503 "try again later" when it cannot be scheduled',
      body: reportExportRequestSchema,
      response: { 202: reportExportSchema },
    },
    async (req, reply) => {
      const row = await scheduleExport(deps, currentUser(req), req.scope, req.body, requestLanguage(req));
      return reply.code(202).send(row);
    },
  );

  route.get(
    '/api/report-exports/:id/file',
    config,
    { summary: 'Download a ready export (.xlsx); 409 while it is not ready', params: reportExportIdParams },
    async (req, reply) => {
      const file = await exportFile(deps, currentUser(req), req.scope, req.params.id, requestLanguage(req));
      reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('cache-control', 'no-store');
      if (file.size != null) reply.header('content-length', String(file.size));
      return reply.send(file.stream);
    },
  );

  route.delete(
    '/api/report-exports/:id',
    config,
    {
      summary: 'Delete one of your exports and its file',
      params: reportExportIdParams,
      response: { 200: reportExportDeletedSchema },
    },
    async (req) => {
      const lang = requestLanguage(req);
      await deleteExport(deps, currentUser(req), req.scope, req.params.id, lang);
      return { code: 'exportDeleted', message: message('exportDeleted', lang) };
    },
  );
}
