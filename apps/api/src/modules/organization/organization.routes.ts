import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { asc } from 'drizzle-orm';
import { z } from 'zod';
import { operatorOptionSchema } from '@kulu/shared';
import { operators } from '../../db/schema/index.js';
import { listClientOptions, listCostCenters, listSubCompanies } from './organization.service.js';

const option = z.object({ id: z.number().int(), name: z.string(), clientId: z.number().int() });

export async function organizationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;

  r.get(
    '/api/operators/public',
    {
      config: { public: true },
      schema: { tags: ['operators'], response: { 200: z.array(operatorOptionSchema) } },
    },
    async () =>
      deps.database.db
        .select({ id: operators.id, name: operators.name })
        .from(operators)
        .orderBy(asc(operators.name)),
  );

  r.get(
    '/api/clients/options',
    {
      config: { permission: 'invoices.upload' },
      schema: { tags: ['organization'], response: { 200: z.array(operatorOptionSchema) } },
    },
    async (req) => listClientOptions(deps.database.db, req.scope),
  );

  r.get(
    '/api/sub-companies',
    {
      config: { permission: 'general' },
      schema: { tags: ['organization'], response: { 200: z.array(option) } },
    },
    async (req) => listSubCompanies(deps.database.db, req.scope),
  );

  r.get(
    '/api/cost-centers',
    {
      config: { permission: 'general' },
      schema: { tags: ['organization'], response: { 200: z.array(option) } },
    },
    async (req) => listCostCenters(deps.database.db, req.scope),
  );
}
