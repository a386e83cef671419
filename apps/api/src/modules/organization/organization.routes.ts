import type { FastifyInstance } from 'fastify';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import { operatorOptionSchema } from '@kulu/shared';
import { operators } from '../../db/schema/index.js';
import { listClientOptions, listCostCenters, listSubCompanies } from './organization.service.js';
import { declareRoutes } from '../../lib/routes.js';

const option = z.object({ id: z.number().int(), name: z.string(), clientId: z.number().int() });

export async function organizationRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, ['organization']);
  const { deps } = app;

  route.get(
    '/api/operators/public',
    { public: true },
    { tags: ['operators'], response: { 200: z.array(operatorOptionSchema) } },
    async () =>
      deps.database.db
        .select({ id: operators.id, name: operators.name })
        .from(operators)
        .orderBy(asc(operators.name)),
  );

  route.get(
    '/api/clients/options',
    'invoices.upload',
    { response: { 200: z.array(operatorOptionSchema) } },
    async (req) => listClientOptions(deps.database.db, req.scope),
  );

  route.get('/api/sub-companies', 'general', { response: { 200: z.array(option) } }, async (req) =>
    listSubCompanies(deps.database.db, req.scope),
  );

  route.get('/api/cost-centers', 'general', { response: { 200: z.array(option) } }, async (req) =>
    listCostCenters(deps.database.db, req.scope),
  );
}
