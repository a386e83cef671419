import type { FastifyInstance } from 'fastify';
import {
  alertAcknowledgedSchema,
  alertAcknowledgeSchema,
  alertClientQuery,
  alertCountSchema,
  alertEventsQuerySchema,
  alertExportQuerySchema,
  alertListQuerySchema,
  alertListSchema,
  alertRulesSchema,
  alertRulesUpdateSchema,
  helsinkiDay,
} from '@kulu/shared';
import { reportRoutes } from '../../lib/report-routes.js';
import { acknowledgeAlerts, countOpen, listAlerts } from './alerts.service.js';
import { alertsSheet } from './alerts.sheet.js';
import { getRules, updateRules } from './rules.service.js';
import { declareRoutes } from '../../lib/routes.js';
import { AlertStreams } from './alert-events.js';

/** Alerts (issue 26): the list, its export, acknowledging, the bell's count and the rules. */
export async function alertsRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { db } = deps.database;
  const tags = ['alerts'];
  const route = declareRoutes(app, tags);
  const config = { permission: 'alerts' } as const;

  reportRoutes(app, {
    path: '/api/alerts',
    permission: config.permission,
    tags,
    summary:
      'The caller’s alerts (their clients; a limited user’s sub-companies and cost centers), newest month first, filtered by client, type, severity, state, sub-company and months (from/to YYYY-MM); each with its sentence in the caller’s language',
    exportSummary: 'Every alert matching the list filters as an Excel file (.xlsx), in the caller’s language',
    querystring: alertListQuerySchema,
    exportQuerystring: alertExportQuerySchema,
    response: alertListSchema,
    list: (scope, q, lang) => listAlerts(db, scope, q, lang),
    workbook: async (scope, q, lang) => ({
      fileName: `alerts-${helsinkiDay(deps.now())}.xlsx`,
      sheet: await alertsSheet(db, scope, q, lang),
    }),
  });

  route.get(
    '/api/alerts/count',
    config,
    {
      summary: 'How many open alerts the caller sees (the header’s bell), and how many of them are high',
      querystring: alertClientQuery,
      response: { 200: alertCountSchema },
    },
    async (req) => countOpen(db, req.scope, req.query.clientId),
  );

  const streams = new AlertStreams(db, deps.database.notices);
  app.addHook('preClose', (done) => {
    streams.closeAll();
    done();
  });
  route.get(
    '/api/alerts/events',
    config,
    {
      summary:
        'The bell’s push: a stream of server-sent events (text/event-stream). A `count` event (`{ open, high }`, as /api/alerts/count) comes at once when the caller’s open alerts differ from the counts given (`open`, optionally `high`: what the bell shows), then on every change, from any API instance (raised, acknowledged, deleted with their invoice). The stream ends after 5 minutes; the client opens a new one',
      querystring: alertEventsQuerySchema,
    },
    (req, reply) => {
      reply.hijack();
      streams.open(req.scope, req.query, reply.raw);
    },
  );

  route.post(
    '/api/alerts/acknowledge',
    config,
    {
      summary:
        'Acknowledges open alerts with an optional note: the ones named by `ids` (up to 10,000; ids the caller does not see or already acknowledged are left as they are), or every open one matching the list’s filters (`matching`: client, sub-company, type, severity, state, months), however many',
      body: alertAcknowledgeSchema,
      response: { 200: alertAcknowledgedSchema },
    },
    async (req) => ({ acknowledged: await acknowledgeAlerts(db, req.scope, req.body, deps.now()) }),
  );

  route.get(
    '/api/alerts/rules',
    config,
    {
      summary:
        'A client’s alert rules (on or off and thresholds; defaults where the client has not changed them). Provider users name the client',
      querystring: alertClientQuery,
      response: { 200: alertRulesSchema },
    },
    async (req) => getRules(db, req.scope, req.query.clientId),
  );

  route.put(
    '/api/alerts/rules',
    config,
    {
      summary:
        'Changes a client’s alert rules (company admins, and provider users for their clients; not a user limited to sub-companies or cost centers)',
      body: alertRulesUpdateSchema,
      response: { 200: alertRulesSchema },
    },
    async (req) => updateRules(db, req.scope, req.body, deps.now()),
  );
}
