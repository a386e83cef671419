import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  idSchema,
  message,
  providerUserInputSchema,
  providerUserListQuerySchema,
  providerUserListSchema,
  providerUserOptionsSchema,
  providerUserSavedSchema,
  providerUserSchema,
} from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import {
  createProviderUser,
  getProviderUser,
  listProviderUsers,
  providerUserOptions,
  setProviderUserStatus,
  updateProviderUser,
} from './provider-users.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';
import { accountStatusRoutes } from '../../lib/account-status-routes.js';

/**
 * The provider's own admins and consultants (issue 11; decisions/0012): provider admins holding
 * `users.manage` only.
 */
export async function providerUsersRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'users.manage' as const };
  const route = declareRoutes(app, ['provider users']);
  const params = z.object({ id: idSchema });
  const base = '/api/provider-users';

  route.get(
    base,
    config,
    {
      summary: "A page of the provider's admins and consultants (search over name, email, contact number)",
      querystring: providerUserListQuerySchema,
      response: { 200: providerUserListSchema },
    },
    async (req) => listProviderUsers(db, req.scope, req.query),
  );

  route.get(
    `${base}/options`,
    config,
    {
      summary: 'The choices of the user form: companies a consultant can be assigned, permissions per role',
      response: { 200: providerUserOptionsSchema },
    },
    async (req) => providerUserOptions(db, req.scope),
  );

  route.get(
    `${base}/:id`,
    config,
    { summary: 'A provider user', params, response: { 200: providerUserSchema } },
    async (req) => getProviderUser(db, req.scope, req.params.id),
  );

  route.post(
    base,
    config,
    {
      summary: 'Add an admin or consultant; they get the activation mail and set a password from its link',
      body: providerUserInputSchema,
      response: { 201: providerUserSavedSchema },
    },
    async (req, reply) => {
      const user = await createProviderUser(deps, callerOf(req), req.body);
      const code = 'providerUserAdded' as const;
      return reply.code(201).send({ user, code, message: message(code, requestLanguage(req)) });
    },
  );

  route.put(
    `${base}/:id`,
    config,
    {
      summary: "Update a provider user (every field); the user's sessions end so the change applies at once",
      params,
      body: providerUserInputSchema,
      response: { 200: providerUserSavedSchema },
    },
    async (req) => {
      const user = await updateProviderUser(deps, callerOf(req), req.params.id, req.body);
      const code = 'providerUserUpdated' as const;
      return { user, code, message: message(code, requestLanguage(req)) };
    },
  );

  accountStatusRoutes(route, {
    base,
    access: config,
    params,
    response: providerUserSavedSchema,
    summaries: {
      deactivate: 'Deactivate a provider user (login refused, sessions revoked); never oneself',
      activate: 'Activate a deactivated provider user again',
    },
    codes: { deactivate: 'providerUserDeactivated', activate: 'providerUserActivated' },
    setStatus: (caller, { id }, status) => setProviderUserStatus(db, caller, id, status),
  });
}
