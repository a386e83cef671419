import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  fetchRunSchema,
  fullAutomationRowSchema,
  idSchema,
  message,
  pagingQuery,
  portalCredentialsSchema,
  portalCredentialsViewSchema,
} from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import {
  deleteCredentials,
  enqueueClientFetch,
  failedDownloads,
  fullAutomation,
  listCredentials,
  monthOf,
  retryFailed,
  saveCredentials,
  setUploadMethod,
} from './automation.service.js';
import { declareRoutes } from '../../lib/routes.js';

const id = idSchema;
const okSchema = z.object({ message: z.string() });

/** Invoice automation (provider side, permission `automation`): portal credentials, runs, reports. */
export async function automationRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const access = { permission: 'automation' } as const;
  const clientAccess = { ...access, client: 'clientId' };
  const route = declareRoutes(app, ['automation']);
  const base = '/api/automation/clients/:clientId';

  route.get(
    `${base}/credentials`,
    clientAccess,
    { params: z.object({ clientId: id }), response: { 200: z.array(portalCredentialsViewSchema) } },
    async (req) => listCredentials(db, req.params.clientId),
  );

  route.put(
    `${base}/credentials`,
    clientAccess,
    {
      summary: 'Store operator portal credentials (the password is encrypted and never returned)',
      params: z.object({ clientId: id }),
      body: portalCredentialsSchema,
      response: { 200: z.array(portalCredentialsViewSchema) },
    },
    async (req) => saveCredentials(deps, req.params.clientId, req.body),
  );

  route.delete(
    `${base}/credentials/:operatorId`,
    clientAccess,
    { params: z.object({ clientId: id, operatorId: id }), response: { 200: okSchema } },
    async (req) => {
      await deleteCredentials(db, req.params.clientId, req.params.operatorId);
      return { message: message('deleted', requestLanguage(req)) };
    },
  );

  route.put(
    `${base}/method`,
    clientAccess,
    {
      params: z.object({ clientId: id }),
      body: z.object({ invoiceUploadMethod: z.enum(['manual', 'automation']) }),
      response: { 200: okSchema },
    },
    async (req) => {
      await setUploadMethod(db, req.params.clientId, req.body.invoiceUploadMethod);
      return { message: message('updated', requestLanguage(req)) };
    },
  );

  route.post(
    `${base}/run`,
    clientAccess,
    {
      summary: "Fetch a month's invoices from the client's operator portals now",
      params: z.object({ clientId: id }),
      body: z
        .object({
          month: z
            .string()
            .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
            .optional(),
        })
        .optional(),
      response: { 200: z.object({ message: z.string(), jobs: z.number().int() }) },
    },
    async (req) => {
      const jobs = await enqueueClientFetch(
        deps,
        req.params.clientId,
        req.body?.month ?? monthOf(deps.now()),
      );
      return { message: message('retryQueued', requestLanguage(req)), jobs };
    },
  );

  route.get(
    '/api/automation/failed-downloads',
    access,
    {
      querystring: pagingQuery,
      response: {
        200: z.object({
          items: z.array(fetchRunSchema),
          total: z.number().int(),
          page: z.number().int(),
          pageSize: z.number().int(),
        }),
      },
    },
    async (req) => failedDownloads(db, req.scope, req.query.page, req.query.pageSize),
  );

  route.post(
    '/api/automation/failed-downloads/:id/retry',
    access,
    { params: z.object({ id }), response: { 200: okSchema } },
    async (req) => {
      await retryFailed(deps, req.scope, req.params.id);
      return { message: message('retryQueued', requestLanguage(req)) };
    },
  );

  route.get(
    '/api/automation/full-automation',
    access,
    { response: { 200: z.array(fullAutomationRowSchema) } },
    async (req) => fullAutomation(db, req.scope),
  );
}
