import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activityLogListSchema,
  activityLogOptionsSchema,
  activityLogQuerySchema,
  type Lang,
} from '@kulu/shared';
import { safeText, streamXlsx } from '../../lib/resource/export.js';
import { requestLanguage } from '../../plugins/errors.js';
import { activityLogBatches, activityLogOptions, activityLogReport } from './activity-log.service.js';

/** Headers of the activity log workbook, in the caller's language. */
const ACTIVITY_HEADERS: Record<Lang, string[]> = {
  en: ['Time (UTC)', 'User', 'Email', 'Client', 'Area', 'Action', 'Entity', 'Entity id', 'Before', 'After'],
  fi: [
    'Aika (UTC)',
    'Käyttäjä',
    'Sähköposti',
    'Asiakas',
    'Alue',
    'Toiminto',
    'Kohde',
    'Kohteen tunniste',
    'Ennen',
    'Jälkeen',
  ],
};
const ACTIVITY_SHEET: Record<Lang, string> = { en: 'Activity log', fi: 'Tapahtumaloki' };

/** A JSON cell of the workbook, cut to what a cell holds (32,767 characters). */
const jsonCell = (v: unknown) => (v == null ? null : safeText(JSON.stringify(v).slice(0, 32_000)));

/**
 * Reports (issue 12): `GET /api/reports/<report>` → `{ items, total, totals, page, pageSize }`, and
 * `/export` → the workbook of exactly what the filters show.
 */
export async function reportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['reports'];
  const activity = { permission: 'activityLog' as const };

  r.get(
    '/api/reports/activity-log',
    {
      config: activity,
      schema: {
        tags,
        summary:
          'Activity log: who changed what and when, with before / after; filters by user, client, area and days',
        querystring: activityLogQuerySchema,
        response: { 200: activityLogListSchema },
      },
    },
    async (req) => activityLogReport(db, req.query),
  );

  r.get(
    '/api/reports/activity-log/options',
    {
      config: activity,
      schema: {
        tags,
        summary: "The activity log filters' choices: users and clients with entries, and the areas",
        response: { 200: activityLogOptionsSchema },
      },
    },
    async () => activityLogOptions(db),
  );

  r.get(
    '/api/reports/activity-log/export',
    {
      config: activity,
      schema: {
        tags,
        summary: 'The activity log entries of the filters as an Excel file (.xlsx), newest first',
        querystring: activityLogQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      async function* cells() {
        for await (const batch of activityLogBatches(db, req.query)) {
          yield batch.map((e) => [
            e.at.slice(0, 19).replace('T', ' '),
            e.userName == null ? null : safeText(e.userName),
            e.userEmail == null ? null : safeText(e.userEmail),
            e.clientName == null ? null : safeText(e.clientName),
            safeText(e.area),
            safeText(e.action),
            safeText(e.entity),
            e.entityId,
            jsonCell(e.before),
            jsonCell(e.after),
          ]);
        }
      }
      const date = new Date().toISOString().slice(0, 10);
      return streamXlsx(req, reply, {
        fileName: `activity-log-${date}.xlsx`,
        sheet: ACTIVITY_SHEET[lang],
        columns: ACTIVITY_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i === 7 ? '0' : undefined,
          width: i >= 8 ? 60 : i === 0 ? 20 : undefined,
        })),
        rows: cells(),
        table: true,
      });
    },
  );
}
