import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientSectionDeletedSchema,
  clientUserOptionsSchema,
  idSchema,
  message,
  subCompanyInputSchema,
  subCompanyListQuerySchema,
  subCompanyListSchema,
  subCompanySavedSchema,
  subCompanySchema,
} from '@kulu/shared';
import { callerOf } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import { grantablePermissions } from './client-users.service.js';
import {
  clientOptions,
  createSubCompany,
  deleteSubCompany,
  getSubCompany,
  listSubCompanies,
  updateSubCompany,
} from './sub-companies.service.js';

/** Sub-company management of a client (provider side: `clients.manage`, limited by the Scope). */
export async function subCompaniesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const tags = ['client sub-companies'];
  const clientParams = z.object({ clientId: idSchema });
  const params = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/sub-companies';

  // The client of the path is checked through the Scope before the body is validated, so another
  // client answers 404 whatever the body. The row's id is checked after validation (a bad body
  // answers the same 400 for every id, so ids can't be probed; a valid one meets a 404 when the
  // row is not this client's).
  app.addHook('preValidation', async (req) => {
    const clientId = idSchema.safeParse((req.params as Record<string, unknown>).clientId);
    if (clientId.success) await req.scope.assertClient(clientId.data);
  });

  r.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: "A page of the client's sub-companies with their number of users",
        params: clientParams,
        querystring: subCompanyListQuerySchema,
        response: { 200: subCompanyListSchema },
      },
    },
    async (req) => listSubCompanies(db, callerOf(req), req.params.clientId, req.query),
  );

  r.get(
    `${base}/options`,
    {
      config,
      schema: {
        tags,
        summary:
          "Choices of the sub-company and client-user forms: billing plans, the client's sub-companies and cost centers, grantable permissions",
        params: clientParams,
        response: { 200: clientUserOptionsSchema },
      },
    },
    async (req) => ({
      ...(await clientOptions(db, callerOf(req), req.params.clientId)),
      permissions: grantablePermissions(callerOf(req)),
    }),
  );

  r.get(
    `${base}/:id`,
    { config, schema: { tags, summary: 'A sub-company', params, response: { 200: subCompanySchema } } },
    async (req) => getSubCompany(db, callerOf(req), req.params.clientId, req.params.id),
  );

  r.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add a sub-company (the name is unique within the client)',
        params: clientParams,
        body: subCompanyInputSchema,
        response: { 201: subCompanySavedSchema },
      },
    },
    async (req, reply) => {
      const subCompany = await createSubCompany(db, callerOf(req), req.params.clientId, req.body);
      const code = 'subCompanyAdded' as const;
      return reply.code(201).send({ subCompany, code, message: message(code, requestLanguage(req)) });
    },
  );

  r.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update a sub-company (every field)',
        params,
        body: subCompanyInputSchema,
        response: { 200: subCompanySavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const subCompany = await updateSubCompany(db, callerOf(req), clientId, id, req.body);
      const code = 'subCompanyUpdated' as const;
      return { subCompany, code, message: message(code, requestLanguage(req)) };
    },
  );

  r.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a sub-company nothing refers to (409 when it has users, cost centers or invoices)',
        params,
        response: { 200: clientSectionDeletedSchema },
      },
    },
    async (req) => {
      await deleteSubCompany(db, callerOf(req), req.params.clientId, req.params.id);
      const code = 'subCompanyDeleted' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );
}
