import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  IMPORT_MAX_BYTES,
  idParams,
  importPreviewSchema,
  importQuerySchema,
  importResultSchema,
  message,
  planChoiceSchema,
  planDetailListQuerySchema,
  planDetailListSchema,
  planDetailSavedSchema,
  planDetailUpdateSchema,
} from '@kulu/shared';
import { AppError } from '../../lib/errors.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import { invoiceUsersDef, targetClient } from './invoice-users.service.js';
import { previewImport, runImport } from './invoice-users-import.js';
import { listPlanDetails, planChoices, updatePlanDetail } from './plan-details.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';

interface ImportFile {
  name: string;
  data: Buffer;
}

/** The one file of an import request (multipart, any field name); too large or none → 400. */
async function importFile(req: FastifyRequest): Promise<ImportFile> {
  if (!req.isMultipart()) throw new AppError(400, 'validation', { file: 'required' });
  let file: ImportFile | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 5 } })) {
      if (part.type !== 'file') continue;
      const data = await part.toBuffer();
      if (part.file.truncated) throw new AppError(400, 'importTooLarge');
      file = { name: part.filename, data };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(400, 'importTooLarge');
  }
  if (!file) throw new AppError(400, 'validation', { file: 'required' });
  return file;
}

/**
 * The company's client masters (issue 11): Invoice User Management with its import, and Plan
 * Details. A company works on its own client; provider users name it (`clientId` in the query or,
 * on create, the body). Rows of another client answer 404.
 */
export async function clientMastersRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const users = { permission: 'clientMasters.invoiceUsers' } as const;
  const planDetails = { permission: 'clientMasters.planDetails' } as const;
  const tags = ['client-masters'];
  const route = declareRoutes(app, tags);

  registerResource(app, invoiceUsersDef, {
    base: '/api/invoice-users',
    tags,
    without: ['export', 'options', 'get'],
    summaries: {
      list: 'Invoice User Management: the users of a client, searched, filtered, sorted and paged',
      create: 'Add an invoice user; Allow login creates a client user and mails the activation link',
      update: 'Update an invoice user (every field); Allow login on or off',
      delete: 'Delete an invoice user (its login, if any, is deactivated)',
    },
  });

  /**
   * An import call (multipart: a CSV or .xlsx file): the client first, so another client's id
   * answers 404 whatever the file, then the file, both handed to `handle`.
   */
  type ImportAnswer = typeof importPreviewSchema | typeof importResultSchema;
  const importRoute = <S extends ImportAnswer>(
    url: string,
    summary: string,
    response: S,
    handle: (req: FastifyRequest, clientId: number, file: ImportFile) => Promise<z.output<S>>,
  ) =>
    route.post(
      url,
      users,
      {
        summary,
        consumes: ['multipart/form-data'],
        querystring: importQuerySchema,
        response: { 200: response as ImportAnswer },
      },
      async (req) => {
        const clientId = await targetClient(req.scope, req.query.clientId);
        // Each call's `handle` is checked against its own schema `S`; here only the union is known.
        const answer: z.output<ImportAnswer> = await handle(req, clientId, await importFile(req));
        return answer;
      },
    );

  importRoute(
    '/api/invoice-users/import/preview',
    'Import preview (multipart: a CSV or .xlsx file): valid count and per-row errors; writes nothing',
    importPreviewSchema,
    (req, clientId, file) => previewImport(deps, req.scope, clientId, file.data, requestLanguage(req)),
  );

  importRoute(
    '/api/invoice-users/import',
    'Import the same file: validated again, its valid rows written in one transaction (upsert by phone number)',
    importResultSchema,
    async (req, clientId, file) => {
      const lang = requestLanguage(req);
      const counts = await runImport(deps, callerOf(req), clientId, file.data, lang, file.name);
      return { ...counts, code: 'importDone', message: message('importDone', lang) };
    },
  );

  route.get(
    '/api/plan-details',
    planDetails,
    {
      summary: "Plan Details: each subscription's current plan, list price and contract price",
      querystring: planDetailListQuerySchema,
      response: { 200: planDetailListSchema },
    },
    async (req) => listPlanDetails(db, req.scope, req.query),
  );

  route.get(
    '/api/plan-details/:id/plans',
    planDetails,
    {
      summary: "Edit Plan Details: the plans of the subscription's operator it may be put on",
      params: idParams,
      response: { 200: z.array(planChoiceSchema) },
    },
    async (req) => planChoices(db, req.scope, req.params.id),
  );

  route.put(
    '/api/plan-details/:id',
    planDetails,
    {
      summary:
        "Edit Plan Details: the subscription's plan and the client's contract price; queues re-optimization",
      params: idParams,
      body: planDetailUpdateSchema,
      response: { 200: planDetailSavedSchema },
    },
    async (req) => {
      const saved = await updatePlanDetail(deps, callerOf(req), req.params.id, req.body);
      const code = 'planDetailsUpdated' as const;
      return { ...saved, code, message: message(code, requestLanguage(req)) };
    },
  );
}
