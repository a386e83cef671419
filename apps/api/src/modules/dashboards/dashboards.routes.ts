import type { FastifyInstance } from 'fastify';
import {
  costUsageCostElementsSchema,
  costUsageQuerySchema,
  costUsageSchema,
  costUsageSubscriptionListSchema,
  costUsageSubscriptionsQuerySchema,
} from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import { costUsage, costUsageCostElements, costUsageSubscriptions } from './dashboards.service.js';
import { declareRoutes } from '../../lib/routes.js';

export async function dashboardsRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const route = declareRoutes(app, ['dashboards']);

  route.get(
    '/api/dashboard/cost-usage',
    'dashboards',
    {
      summary:
        'Cost and usage of a client for a period (YYYY-MM to YYYY-MM, at most 36 months), filtered by sub-company, cost center, cost category, cost element or usage type: totals with the like-with-like change against the previous period, months, categories, cost centers, sub-companies and top users; money in euros as decimal strings',
      querystring: costUsageQuerySchema,
      response: { 200: costUsageSchema },
    },
    async (req) => costUsage(db, req.scope, req.query, requestLanguage(req)),
  );

  route.get(
    '/api/dashboard/cost-usage/cost-elements',
    'dashboards',
    {
      summary:
        "The cost elements with cost in the dashboard's slice (client, period, sub-company, cost center, cost category, usage type; not the cost element filter itself), largest cost first, at most 500: the choices of the dashboard's cost-element filter",
      querystring: costUsageQuerySchema,
      response: { 200: costUsageCostElementsSchema },
    },
    async (req) => costUsageCostElements(db, req.scope, req.query),
  );

  route.get(
    '/api/dashboard/cost-usage/subscriptions',
    'dashboards',
    {
      summary:
        'The subscriptions behind the cost-and-usage figures, with their cost in the period: every user ("show all") or the drill-down of one month (from = to), cost category, usage type, cost center or sub-company; the same filters and scope as the dashboard; paged, sorted (cost, largest first, by default) and searched by phone number or user name',
      querystring: costUsageSubscriptionsQuerySchema,
      response: { 200: costUsageSubscriptionListSchema },
    },
    async (req) => costUsageSubscriptions(db, req.scope, req.query),
  );
}
