import type { FastifyInstance } from 'fastify';
import {
  helsinkiDay,
  markBodySchema,
  markResultSchema,
  unmarkResultSchema,
  optimizationExportQuerySchema,
  optimizationListQuerySchema,
  optimizationListSchema,
  optimizationSettingsBodySchema,
  optimizationSettingsQuerySchema,
  optimizationSettingsResultSchema,
  reoptimizeBodySchema,
  reoptimizeResultSchema,
  savingsQuerySchema,
  savingsSchema,
} from '@kulu/shared';
import { currentUser } from '../../plugins/access.js';
import { reportRoutes } from '../../lib/report-routes.js';
import { optimizationSheet } from './optimization.sheet.js';
import {
  getSettings,
  listOptimization,
  markSubscriptions,
  unmarkSubscriptions,
  putSettings,
  resolveClient,
  savings,
} from './optimization.service.js';
import { requestOptimization } from './optimize.service.js';
import { declareRoutes } from '../../lib/routes.js';

export async function optimizationRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { db } = deps.database;
  const tags = ['optimization'];
  const route = declareRoutes(app, tags);

  reportRoutes(app, {
    path: '/api/optimization/subscriptions',
    permission: 'optimization.view',
    exportPermission: 'optimization.export',
    tags,
    summary:
      "A client's optimization findings by tab (optimized, unoptimized, unused) with saving limit, search, sub-company and cost-center filters, sort and paging; totals over every matching row, counts per tab and the latest run. Money in euros as decimal strings",
    exportSummary:
      'Every finding matching the list filters as an Excel file (.xlsx), headers in the caller’s language',
    querystring: optimizationListQuerySchema,
    exportQuerystring: optimizationExportQuerySchema,
    response: optimizationListSchema,
    list: (scope, q, lang) => listOptimization(db, scope, q, lang),
    workbook: async (scope, q, lang) => ({
      fileName: `optimization-${q.tab}-${helsinkiDay(deps.now())}.xlsx`,
      sheet: await optimizationSheet(db, scope, q, lang),
    }),
  });

  route.post(
    '/api/optimization/reoptimize',
    'optimization.reoptimize',
    {
      summary: "Queues a re-optimization of the client's subscriptions (202 with the run and its job)",
      body: reoptimizeBodySchema,
      response: { 202: reoptimizeResultSchema },
    },
    async (req, reply) => {
      const clientId = await resolveClient(req.scope, req.body);
      const run = await requestOptimization(deps, clientId, 'manual', currentUser(req).id);
      return reply.code(202).send(run);
    },
  );

  route.post(
    '/api/optimization/mark',
    'optimization.mark',
    {
      summary:
        'Marks optimized or unused findings for optimization (tracked until an invoice shows the change); already marked ones are counted apart',
      body: markBodySchema,
      response: { 200: markResultSchema },
    },
    async (req) => markSubscriptions(db, req.scope, req.body, currentUser(req).id),
  );

  route.post(
    '/api/optimization/unmark',
    'optimization.mark',
    {
      summary:
        'Takes marks back: the open marks of the subscriptions are cancelled and the findings are open recommendations again; realised or unmarked ones are counted apart',
      body: markBodySchema,
      response: { 200: unmarkResultSchema },
    },
    async (req) => unmarkSubscriptions(db, req.scope, req.body),
  );

  route.get(
    '/api/optimization/settings',
    'optimization.view',
    {
      summary: "The client's optimizer settings: months of use it sizes on, Unused Month Count",
      querystring: optimizationSettingsQuerySchema,
      response: { 200: optimizationSettingsResultSchema },
    },
    async (req) => getSettings(db, await resolveClient(req.scope, req.query)),
  );

  route.put(
    '/api/optimization/settings',
    'optimization.reoptimize',
    {
      summary: "Changes the client's optimizer settings and queues a re-optimization",
      body: optimizationSettingsBodySchema,
      response: { 200: optimizationSettingsResultSchema },
    },
    async (req) => {
      const clientId = await resolveClient(req.scope, { clientId: req.body.clientId });
      const saved = await putSettings(db, clientId, req.body);
      await requestOptimization(deps, clientId, 'settings', currentUser(req).id);
      return saved;
    },
  );

  route.get(
    '/api/dashboard/savings',
    'savings',
    {
      tags: ['dashboards'],
      summary:
        'Savings of a client: potential (open recommendations and unused subscriptions, the marked part) and realised savings by month and sub-company over the period; money in euros as decimal strings',
      querystring: savingsQuerySchema,
      response: { 200: savingsSchema },
    },
    async (req) => savings(db, req.scope, req.query, deps.now()),
  );
}
