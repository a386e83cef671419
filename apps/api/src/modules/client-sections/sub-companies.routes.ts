import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { clientUserOptionsSchema, idSchema, subCompanyResource } from '@kulu/shared';
import {
  clientBillingPlans,
  costCenters,
  invoices,
  invoiceUsers,
  monthlyFacts,
  subCompanies,
  subscriptions,
  userSubCompanies,
} from '../../db/schema/index.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { nameOf, qualified, type ResourceDef, uniqueIndex } from '../../lib/resource/resource.service.js';
import { grantablePermissions } from './client-users.service.js';
import { underClient } from './client-parent.js';
import { clientOptions } from './sub-companies.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';

/**
 * Sub-company management of a client (spec §2, §3 Sub-company: name, number of users, billing
 * plan; §8 "Sub-company name already exists"), declared as a resource nested under its client
 * (packages/shared `subCompanyResource`) on the generic mechanism (lib/resource): provider side
 * (`clients.manage`), limited by the Scope through the client of the path. The name is unique
 * within the client, whatever its case (the unique index `sub_companies_client_name_uq` is the
 * safety net); a sub-company anything refers to (client users, cost centers, invoice users,
 * invoices, subscriptions, monthly facts) is kept: 409 `subCompanyInUse`.
 * What is its own is written beside it: the choices of the sub-company and client-user forms.
 */
export const subCompaniesDef: ResourceDef = {
  meta: subCompanyResource,
  table: subCompanies,
  id: subCompanies.id,
  select: {
    id: subCompanies.id,
    clientId: subCompanies.clientId,
    name: subCompanies.name,
    numberOfUsers: subCompanies.numberOfUsers,
    billingPlanId: subCompanies.billingPlanId,
    billingPlanName: nameOf(clientBillingPlans.name, clientBillingPlans.id, subCompanies.billingPlanId),
    /** Client users limited to the sub-company. */
    userCount: sql<number>`(select count(*)::int from ${userSubCompanies} where ${qualified(userSubCompanies.subCompanyId)} = ${qualified(subCompanies.id)})`,
    createdAt: subCompanies.createdAt,
  },
  parent: underClient(subCompanies.clientId),
  refs: { billingPlanId: clientBillingPlans.id },
  unique: [uniqueIndex(subCompanies, 'sub_companies_client_name_uq', { clientId: 'same', name: 'lower' })],
  referencedBy: [
    userSubCompanies.subCompanyId,
    costCenters.subCompanyId,
    invoiceUsers.subCompanyId,
    invoices.subCompanyId,
    subscriptions.subCompanyId,
    monthlyFacts.subCompanyId,
  ],
  activityArea: 'clients',
  activityEntity: 'subCompany',
};

/** `/api/clients/:clientId/sub-companies`, and the choices of the forms at `…/options`. */
export async function subCompaniesRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const base = '/api/clients/:clientId/sub-companies';
  const tags = ['client sub-companies'];
  const route = declareRoutes(app, tags);
  registerResource(app, subCompaniesDef, {
    base,
    tags,
    // The options of this path are the forms' choices below, not the rows as options.
    without: ['export', 'options'],
    summaries: {
      list: "A page of the client's sub-companies with their number of users",
      get: 'A sub-company',
      create: 'Add a sub-company (the name is unique within the client)',
      update: 'Update a sub-company (every field)',
      delete: 'Delete a sub-company nothing refers to (409 when it has users, cost centers or invoices)',
    },
  });

  route.get(
    `${base}/options`,
    { permission: subCompanyResource.permission, client: 'clientId' },
    {
      summary:
        "Choices of the sub-company and client-user forms: billing plans, the client's sub-companies and cost centers, grantable permissions",
      params: z.object({ clientId: idSchema }),
      response: { 200: clientUserOptionsSchema },
    },
    async (req) => ({
      ...(await clientOptions(db, req.params.clientId)),
      permissions: grantablePermissions(callerOf(req)),
    }),
  );
}
