import type { FastifyInstance } from 'fastify';
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
import { declareRoutes } from '../../lib/routes.js';

/**
 * Client Management, Interested Clients and Add Customer (issue 11). The provider admin and
 * consultants hold `clients.manage`; a consultant's Scope limits them to assigned companies.
 * Assigning companies to a consultant is the provider admin's alone.
 */
export async function clientsRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const assigning = { permission: ASSIGN_COMPANIES_PERMISSION };
  const route = declareRoutes(app, ['clients']);
  const clientParams = z.object({ clientId: idSchema });

  route.get(
    '/api/clients',
    config,
    {
      summary:
        'Client Management: clients of a tab (all, lead, company, consultant), searched, filtered and paged',
      querystring: clientListQuerySchema,
      response: { 200: clientListSchema },
    },
    async (req) => listClients(db, req.scope, req.query),
  );

  route.get(
    '/api/clients/interested',
    config,
    {
      summary: 'Interested Clients: sign-ups not converted yet',
      querystring: interestedListQuerySchema,
      response: { 200: clientListSchema },
    },
    async (req) => listInterested(db, req.scope, req.query),
  );

  route.get(
    '/api/clients/:id',
    { ...config, client: 'id' },
    { summary: 'A client profile', params: idParams, response: { 200: clientSchema } },
    async (req) => getClient(db, req.scope, req.params.id),
  );

  route.post(
    '/api/clients',
    config,
    {
      summary: 'Add Customer: the client and its first user, who gets the activation mail',
      body: clientCreateSchema,
      response: { 201: clientSavedSchema },
    },
    async (req, reply) => {
      const client = await createClient(deps, callerOf(req), req.body);
      return reply
        .code(201)
        .send({ client, code: 'clientAdded', message: message('clientAdded', requestLanguage(req)) });
    },
  );

  route.put(
    '/api/clients/:id',
    { ...config, client: 'id' },
    {
      summary: 'Update a client profile (every field)',
      params: idParams,
      body: clientUpdateSchema,
      response: { 200: clientSavedSchema },
    },
    async (req) => {
      const client = await updateClient(deps, callerOf(req), req.params.id, req.body);
      return { client, code: 'clientUpdated', message: message('clientUpdated', requestLanguage(req)) };
    },
  );

  route.post(
    '/api/clients/:id/convert',
    { ...config, client: 'id' },
    {
      summary:
        'Convert an interested client (or a lead) to a lead, company or consultant; activates and mails',
      params: idParams,
      body: convertSchema,
      response: { 200: clientSavedSchema },
    },
    async (req) => {
      const { client, code } = await convertClient(deps, callerOf(req), req.params.id, req.body.to);
      return { client, code, message: message(code, requestLanguage(req)) };
    },
  );

  route.get(
    '/api/clients/:clientId/assigned-companies',
    { ...assigning, client: 'clientId' },
    {
      summary: "A consultant's assigned companies",
      params: clientParams,
      response: { 200: assignedCompaniesViewSchema },
    },
    async (req) => assignedCompanies(db, req.scope, req.params.clientId),
  );

  route.put(
    '/api/clients/:clientId/assigned-companies',
    { ...assigning, client: 'clientId' },
    {
      summary: "Replace a consultant's assigned companies",
      params: clientParams,
      body: assignedCompaniesSchema,
      response: { 200: assignedCompaniesSavedSchema },
    },
    async (req) => {
      const saved = await setAssignedCompanies(deps, callerOf(req), req.params.clientId, req.body.clientIds);
      const code = 'assignedCompaniesSaved' as const;
      return { ...saved, code, message: message(code, requestLanguage(req)) };
    },
  );
}
