import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  clientUserResource,
  clientUserSavedSchema,
  idSchema,
  ROLE,
  type ClientUserInput,
} from '@kulu/shared';
import {
  costCenters,
  subCompanies,
  userCostCenters,
  userSubCompanies,
  users,
} from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { emailTaken } from '../../lib/db-values.js';
import { accountStatusRoutes } from '../../lib/account-status-routes.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { linkedNames, type ResourceDef } from '../../lib/resource/resource.service.js';
import { sendActivationMail } from '../auth/auth.service.js';
import { underClient } from './client-parent.js';
import {
  assertCompany,
  checkLimits,
  checkPermissions,
  setClientUserStatus,
  setLimits,
} from './client-users.service.js';
import { declareRoutes } from '../../lib/routes.js';

/**
 * Additional users (client users) of a client (spec §2 "additional users", §3 Client user: name,
 * address, contact no, email, country, status, sub-companies, cost centers, access permissions),
 * declared as a resource nested under its client (packages/shared `clientUserResource`) on the
 * generic mechanism (lib/resource): provider side (`clients.manage`, limited by the Scope through
 * the client of the path; company admins have no such screen in the spec's company menu:
 * decisions/0009). They are the client's users with the client-user role (`rows`); the company
 * admin is the client's profile. Only a company has them (409 for a consultant-type client). A
 * new user is not activated: the activation mail of the existing flow (auth.service
 * `sendActivationMail`, as Add Customer) lets them set a password, sent after the write commits
 * (`afterCommit`: a failed mail does not undo the user; the link can be sent again by the
 * forgot-password flow, or by saving a new email). Their sub-companies and cost centers limit
 * what they see (the request Scope reads `user_sub_companies` and `user_cost_centers`, written by
 * `afterSave`); none chosen: the whole client. An update ends their sessions (new limits apply at
 * once). Never deleted: deactivating (a workflow beside the declaration) revokes their sessions.
 */
export const clientUsersDef: ResourceDef = {
  meta: clientUserResource,
  table: users,
  id: users.id,
  rows: eq(users.roleId, ROLE.clientUser),
  select: {
    id: users.id,
    clientId: users.clientId,
    name: users.fullName,
    email: users.email,
    address: users.address,
    contactNumber: users.contactNumber,
    country: users.country,
    status: users.status,
    activated: users.activated,
    subCompanies: linkedNames(
      { owner: userSubCompanies.userId, target: userSubCompanies.subCompanyId },
      subCompanies,
      users.id,
    ),
    costCenters: linkedNames(
      { owner: userCostCenters.userId, target: userCostCenters.costCenterId },
      costCenters,
      users.id,
    ),
    permissions: sql`coalesce(${users.permissions}, '[]'::jsonb)`,
    lastLoginAt: users.lastLoginAt,
    createdAt: users.createdAt,
  },
  parent: underClient(users.clientId),
  toValues(input, existing, caller) {
    const v = input as ClientUserInput;
    const profile = {
      fullName: v.name,
      email: v.email,
      address: v.address,
      contactNumber: v.contactNumber,
      country: v.country,
      status: v.status,
      permissions: [...new Set(v.permissions)],
    };
    return existing
      ? // New limits, permissions or status apply at once: old sessions end.
        { ...profile, tokenVersion: sql`${users.tokenVersion} + 1` }
      : { ...profile, roleId: ROLE.clientUser, languageId: caller.user.languageId, activated: false };
  },
  async validate(tx, input, existing, caller, clientId) {
    const v = input as ClientUserInput;
    if (!existing) await assertCompany(tx, clientId!);
    checkPermissions(caller, v.permissions);
    await checkLimits(tx, clientId!, v);
    if (await emailTaken(tx, v.email, existing ? (existing.id as number) : null))
      throw new AppError(409, 'clientUserEmailExists');
  },
  async afterSave(tx, { id, input }) {
    const v = input as ClientUserInput;
    await setLimits(tx, id, [...new Set(v.subCompanyIds)], [...new Set(v.costCenterIds)]);
  },
  async afterCommit(deps, event) {
    // A new user, or one not yet activated whose email changed: the link goes to the address.
    const remail =
      event.type === 'update' &&
      !event.before.activated &&
      (event.before.email as string).toLowerCase() !== (event.after.email as string).toLowerCase();
    if (event.type === 'create' || remail) await sendActivationMail(deps, event.id);
  },
  activityArea: 'clients',
  activityEntity: 'clientUser',
};

/** `/api/clients/:clientId/users`, and the deactivate and activate workflows beside it. */
export async function clientUsersRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const base = '/api/clients/:clientId/users';
  const tags = ['client users'];
  const route = declareRoutes(app, tags);
  registerResource(app, clientUsersDef, {
    base,
    tags,
    without: ['export', 'options', 'delete'],
    summaries: {
      list: "A page of the client's additional users (search over name, email, contact number)",
      get: 'A client user',
      create: 'Add a client user; they get the activation mail and set a password from its link',
      update: 'Update a client user (every field); their sessions end so new limits apply at once',
    },
  });

  accountStatusRoutes(route, {
    base,
    access: { permission: clientUserResource.permission, client: 'clientId' },
    params: z.object({ clientId: idSchema, id: idSchema }),
    response: clientUserSavedSchema,
    summaries: {
      deactivate: 'Deactivate a client user (login refused, sessions revoked)',
      activate: 'Activate a deactivated client user again',
    },
    codes: { deactivate: 'clientUserDeactivated', activate: 'clientUserActivated' },
    setStatus: (caller, { clientId, id }, status) =>
      setClientUserStatus(db, clientUsersDef, caller, clientId, id, status),
  });
}
