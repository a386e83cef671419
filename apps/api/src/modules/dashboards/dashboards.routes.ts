import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { costUsageQuerySchema, costUsageSchema } from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import { costUsage } from './dashboards.service.js';

export async function dashboardsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['dashboards'];

  r.get(
    '/api/dashboard/cost-usage',
    {
      config: { permission: 'dashboards' },
      schema: {
        tags,
        summary:
          'Cost and usage of a client for a period (YYYY-MM to YYYY-MM, at most 36 months): totals against the previous period, months, categories, cost centers, sub-companies and top users; money in euros as decimal strings',
        querystring: costUsageQuerySchema,
        response: { 200: costUsageSchema },
      },
    },
    async (req) => costUsage(db, req.scope, req.query, requestLanguage(req)),
  );
}
