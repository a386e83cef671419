import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  clientUserInputSchema,
  clientUserListQuerySchema,
  clientUserListSchema,
  clientUserSavedSchema,
  clientUserSchema,
  idSchema,
  message,
} from '@kulu/shared';
import { callerOf } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import {
  createClientUser,
  getClientUser,
  listClientUsers,
  setClientUserStatus,
  updateClientUser,
} from './client-users.service.js';

/**
 * Additional users (client users) of a client (provider side: `clients.manage`, limited by the
 * Scope; company admins have no such screen in the spec's company menu: decisions/0009).
 */
export async function clientUsersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const tags = ['client users'];
  const clientParams = z.object({ clientId: idSchema });
  const params = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/users';

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
        summary: "A page of the client's additional users (search over name, email, contact number)",
        params: clientParams,
        querystring: clientUserListQuerySchema,
        response: { 200: clientUserListSchema },
      },
    },
    async (req) => listClientUsers(db, callerOf(req), req.params.clientId, req.query),
  );

  r.get(
    `${base}/:id`,
    { config, schema: { tags, summary: 'A client user', params, response: { 200: clientUserSchema } } },
    async (req) => getClientUser(db, callerOf(req), req.params.clientId, req.params.id),
  );

  r.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add a client user; they get the activation mail and set a password from its link',
        params: clientParams,
        body: clientUserInputSchema,
        response: { 201: clientUserSavedSchema },
      },
    },
    async (req, reply) => {
      const user = await createClientUser(deps, callerOf(req), req.params.clientId, req.body);
      const code = 'clientUserAdded' as const;
      return reply.code(201).send({ user, code, message: message(code, requestLanguage(req)) });
    },
  );

  r.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update a client user (every field); their sessions end so new limits apply at once',
        params,
        body: clientUserInputSchema,
        response: { 200: clientUserSavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const user = await updateClientUser(deps, callerOf(req), clientId, id, req.body);
      const code = 'clientUserUpdated' as const;
      return { user, code, message: message(code, requestLanguage(req)) };
    },
  );

  for (const [action, status, code] of [
    ['deactivate', 'inactive', 'clientUserDeactivated'],
    ['activate', 'active', 'clientUserActivated'],
  ] as const) {
    r.post(
      `${base}/:id/${action}`,
      {
        config,
        schema: {
          tags,
          summary:
            action === 'deactivate'
              ? 'Deactivate a client user (login refused, sessions revoked)'
              : 'Activate a deactivated client user again',
          params,
          response: { 200: clientUserSavedSchema },
        },
      },
      async (req) => {
        const user = await setClientUserStatus(db, callerOf(req), req.params.clientId, req.params.id, status);
        return { user, code, message: message(code, requestLanguage(req)) };
      },
    );
  }
}
