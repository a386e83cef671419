import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignedCompaniesSavedSchema,
  assignedCompaniesSchema,
  assignedCompaniesViewSchema,
  clientCreateSchema,
  clientListQuerySchema,
  clientListSchema,
  clientSavedSchema,
  clientSchema,
  clientUpdateSchema,
  convertSchema,
  idParams,
  idSchema,
  interestedListQuerySchema,
  message,
  ASSIGN_COMPANIES_PERMISSION,
} from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import {
  assignedCompanies,
  convertClient,
  createClient,
  getClient,
  listClients,
  listInterested,
  setAssignedCompanies,
  updateClient,
} from './clients.service.js';
import { callerOf } from '../../plugins/access.js';

/**
 * Client Management, Interested Clients and Add Customer (issue 11). The provider admin and
 * consultants hold `clients.manage`; a consultant's Scope limits them to assigned companies.
 * Assigning companies to a consultant is the provider admin's alone.
 */
export async function clientsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const assigning = { permission: ASSIGN_COMPANIES_PERMISSION };
  const tags = ['clients'];
  const clientParams = z.object({ clientId: idSchema });

  r.get(
    '/api/clients',
    {
      config,
      schema: {
        tags,
        summary:
          'Client Management: clients of a tab (all, lead, company, consultant), searched, filtered and paged',
        querystring: clientListQuerySchema,
        response: { 200: clientListSchema },
      },
    },
    async (req) => listClients(db, req.scope, req.query),
  );

  r.get(
    '/api/clients/interested',
    {
      config,
      schema: {
        tags,
        summary: 'Interested Clients: sign-ups not converted yet',
        querystring: interestedListQuerySchema,
        response: { 200: clientListSchema },
      },
    },
    async (req) => listInterested(db, req.scope, req.query),
  );

  r.get(
    '/api/clients/:id',
    {
      config: { ...config, client: 'id' },
      schema: { tags, summary: 'A client profile', params: idParams, response: { 200: clientSchema } },
    },
    async (req) => getClient(db, req.scope, req.params.id),
  );

  r.post(
    '/api/clients',
    {
      config,
      schema: {
        tags,
        summary: 'Add Customer: the client and its first user, who gets the activation mail',
        body: clientCreateSchema,
        response: { 201: clientSavedSchema },
      },
    },
    async (req, reply) => {
      const client = await createClient(deps, callerOf(req), req.body);
      return reply
        .code(201)
        .send({ client, code: 'clientAdded', message: message('clientAdded', requestLanguage(req)) });
    },
  );

  r.put(
    '/api/clients/:id',
    {
      config: { ...config, client: 'id' },
      schema: {
        tags,
        summary: 'Update a client profile (every field)',
        params: idParams,
        body: clientUpdateSchema,
        response: { 200: clientSavedSchema },
      },
    },
    async (req) => {
      const client = await updateClient(deps, callerOf(req), req.params.id, req.body);
      return { client, code: 'clientUpdated', message: message('clientUpdated', requestLanguage(req)) };
    },
  );

  r.post(
    '/api/clients/:id/convert',
    {
      config: { ...config, client: 'id' },
      schema: {
        tags,
        summary:
          'Convert an interested client (or a lead) to a lead, company or consultant; activates and mails',
        params: idParams,
        body: convertSchema,
        response: { 200: clientSavedSchema },
      },
    },
    async (req) => {
      const { client, code } = await convertClient(deps, callerOf(req), req.params.id, req.body.to);
      return { client, code, message: message(code, requestLanguage(req)) };
    },
  );

  r.get(
    '/api/clients/:clientId/assigned-companies',
    {
      config: { ...assigning, client: 'clientId' },
      schema: {
        tags,
        summary: "A consultant's assigned companies",
        params: clientParams,
        response: { 200: assignedCompaniesViewSchema },
      },
    },
    async (req) => assignedCompanies(db, req.scope, req.params.clientId),
  );

  r.put(
    '/api/clients/:clientId/assigned-companies',
    {
      config: { ...assigning, client: 'clientId' },
      schema: {
        tags,
        summary: "Replace a consultant's assigned companies",
        params: clientParams,
        body: assignedCompaniesSchema,
        response: { 200: assignedCompaniesSavedSchema },
      },
    },
    async (req) => {
      const saved = await setAssignedCompanies(deps, callerOf(req), req.params.clientId, req.body.clientIds);
      const code = 'assignedCompaniesSaved' as const;
      return { ...saved, code, message: message(code, requestLanguage(req)) };
    },
  );
}
