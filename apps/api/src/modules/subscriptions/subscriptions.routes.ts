import type { FastifyInstance } from 'fastify';
import { idParams, subscriptionDetailQuerySchema, subscriptionDetailSchema } from '@kulu/shared';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { getSubscription } from './subscriptions.service.js';
import { declareRoutes } from '../../lib/routes.js';

export async function subscriptionsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, ['subscriptions']);
  const { db } = app.deps.database;

  route.get(
    '/api/subscriptions/:id',
    'dashboards',
    {
      summary:
        'One subscription: plan, months of cost and usage, cost by category for a period (from/to YYYY-MM), the invoices it is on and its optimization finding (for optimization viewers)',
      params: idParams,
      querystring: subscriptionDetailQuerySchema,
      response: { 200: subscriptionDetailSchema },
    },
    async (req) =>
      getSubscription(
        db,
        req.scope,
        req.params.id,
        req.query,
        requestLanguage(req),
        currentUser(req).permissions.includes('optimization.view'),
      ),
  );
}
