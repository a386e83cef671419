import type { FastifyInstance, FastifyReply } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  costElementCategorizeSchema,
  costElementCategorySchema,
  costElementMaster,
  type CostElement,
  type HelpFile,
  helpFileMaster,
  helpForPageSchema,
  helpPageSchema,
  HELP_FILE_MAX_BYTES,
  idParams,
  idSchema,
  idsSchema,
  message,
  optionSchema,
  MASTER_LOOKUP_PERMISSIONS,
} from '@kulu/shared';
import { clients, subCompanies } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { callerOf, currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { approveCostElements, categorizeCostElements } from './cost-elements.service.js';
import { costElementResource, helpFileResource, MASTER_RESOURCE_DEFS } from './definitions.js';
import { helpFileContent, helpForPage, saveHelpFile } from './help.service.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { getRow } from '../../lib/resource/resource.service.js';
import { declareRoutes } from '../../lib/routes.js';

const bulkResult = z.object({ updated: z.number().int(), code: z.string(), message: z.string() });

/** `{field: 'required' | 'invalid'}` from zod issues, as the error handler makes them for bodies. */
function fieldsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const i of error.issues) {
    const key = i.path.join('.') || '_';
    if (!fields[key])
      fields[key] =
        i.code === 'invalid_type' && /received undefined/.test(i.message) ? 'required' : 'invalid';
  }
  return fields;
}

function sendFile(reply: FastifyReply, file: { name: string; mime: string; data: Buffer }) {
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', `attachment; filename="${encodeURIComponent(file.name)}"`)
    .header('cache-control', 'private, no-store')
    .send(file.data);
}

/** Masters (spec §2 /admin/master): the generic resources plus what is special about some. */
export async function mastersRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const tags = ['masters'];
  const route = declareRoutes(app, tags);

  for (const def of MASTER_RESOURCE_DEFS) {
    registerResource(app, def, { base: `/api/masters/${def.meta.path}`, tags });
  }

  // ---- cost elements: assign a category and approve, one by one and in bulk ------------------
  const ce = { permission: costElementMaster.permission };
  route.post(
    '/api/masters/cost-elements/:id/category',
    ce,
    { params: idParams, body: costElementCategorySchema, response: { 200: costElementMaster.entity } },
    async (req) => {
      await categorizeCostElements(db, [req.params.id], req.body.costCategoryId);
      return getRow<CostElement>(db, costElementResource, callerOf(req), req.params.id);
    },
  );
  route.post(
    '/api/masters/cost-elements/:id/approve',
    ce,
    { params: idParams, response: { 200: costElementMaster.entity } },
    async (req) => {
      await approveCostElements(db, currentUser(req), [req.params.id], deps.now());
      return getRow<CostElement>(db, costElementResource, callerOf(req), req.params.id);
    },
  );
  route.post(
    '/api/masters/cost-elements/categorize',
    ce,
    { body: costElementCategorizeSchema, response: { 200: bulkResult } },
    async (req) => {
      const updated = await categorizeCostElements(db, req.body.ids, req.body.costCategoryId);
      return {
        updated,
        code: 'costElementsCategorized',
        message: message('costElementsCategorized', requestLanguage(req)),
      };
    },
  );
  route.post(
    '/api/masters/cost-elements/approve',
    ce,
    { body: idsSchema, response: { 200: bulkResult } },
    async (req) => {
      const updated = await approveCostElements(db, currentUser(req), req.body.ids, deps.now());
      return {
        updated,
        code: 'costElementsApproved',
        message: message('costElementsApproved', requestLanguage(req)),
      };
    },
  );

  // ---- help files: upload by content, download; users read the help of their page -------------
  const help = { permission: helpFileMaster.permission };
  route.post(
    '/api/masters/help',
    help,
    { consumes: ['multipart/form-data'], response: { 201: helpFileMaster.entity } },
    async (req, reply) => {
      if (!req.isMultipart()) throw new AppError(400, 'validation', { file: 'required' });
      const fields: Record<string, string> = {};
      let file: { name: string; data: Buffer } | null = null;
      try {
        for await (const part of req.parts({
          limits: { fileSize: HELP_FILE_MAX_BYTES, files: 1, fields: 10 },
        })) {
          if (part.type === 'file') {
            const data = await part.toBuffer();
            if (part.file.truncated) throw new AppError(400, 'helpFileTooLarge');
            file = { name: part.filename, data };
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError(400, 'helpFileTooLarge');
      }
      const parsed = helpFileMaster.create.safeParse(fields);
      const invalid = parsed.success ? {} : fieldsOf(parsed.error);
      if (!file) invalid.file = 'required';
      if (!parsed.success || !file) throw new AppError(400, 'validation', invalid);
      const id = await saveHelpFile(db, {
        ...(parsed.data as { roleId: number; page: string; languageId: number }),
        fileName: file.name,
        data: file.data,
      });
      return reply.code(201).send(await getRow<HelpFile>(db, helpFileResource, callerOf(req), id));
    },
  );
  route.get('/api/masters/help/:id/file', help, { params: idParams }, async (req, reply) =>
    sendFile(reply, await helpFileContent(db, req.params.id)),
  );
  route.get(
    '/api/help',
    { auth: true },
    { tags: ['help'], querystring: z.object({ page: helpPageSchema }), response: { 200: helpForPageSchema } },
    async (req) => helpForPage(db, currentUser(req), req.query.page),
  );
  route.get('/api/help/:id/file', { auth: true }, { tags: ['help'], params: idParams }, async (req, reply) =>
    sendFile(reply, await helpFileContent(db, req.params.id, currentUser(req))),
  );

  // ---- choices for the forms that are not masters themselves ---------------------------------
  // Through the caller's Scope like every read of client data: the permissions alone would let any
  // holder of them see every company (decision 0024).
  const lookups = { permission: MASTER_LOOKUP_PERMISSIONS };
  route.get(
    '/api/masters/lookups/clients',
    lookups,
    { response: { 200: z.array(optionSchema) } },
    async (req) =>
      db
        .select({ id: clients.id, name: clients.companyName })
        .from(clients)
        .where(and(eq(clients.type, 'company'), req.scope.where({ clientId: clients.id })))
        .orderBy(asc(clients.companyName)),
  );
  route.get(
    '/api/masters/lookups/sub-companies',
    lookups,
    { querystring: z.object({ clientId: idSchema.optional() }), response: { 200: z.array(optionSchema) } },
    async (req) =>
      db
        .select({ id: subCompanies.id, name: subCompanies.name })
        .from(subCompanies)
        .where(
          and(
            req.query.clientId ? eq(subCompanies.clientId, req.query.clientId) : undefined,
            req.scope.where({ clientId: subCompanies.clientId, subCompanyId: subCompanies.id }),
          ),
        )
        .orderBy(asc(subCompanies.name)),
  );
}
