import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  activityLogListSchema,
  activityLogOptionsSchema,
  activityLogQuerySchema,
  clientContractsListSchema,
  clientContractsQuerySchema,
  costSummaryListSchema,
  overchargedListSchema,
  overchargedQuerySchema,
  planTypesListSchema,
  summaryQuerySchema,
  usageSummaryListSchema,
  planTypesQuerySchema,
  topUsersListSchema,
  unusedSubscriptionsListSchema,
  unusedSubscriptionsQuerySchema,
  topUsersQuerySchema,
  type Lang,
} from '@kulu/shared';
import { unusedSubscriptions } from '../dashboards/unused.service.js';
import { planTypes } from '../dashboards/plan-types.service.js';
import { overchargedPlans } from '../dashboards/overcharged.service.js';
import { costSummaries, usageSummaries } from '../dashboards/summaries.service.js';
import { NUM_FMT, safeText } from '../../lib/xlsx/index.js';
import { sendWorkbook, streamXlsx } from '../../lib/xlsx/http.js';
import { allPages, planTypesSheet, topUsers, topUsersSheet } from './report-sheets.js';
import { requestLanguage } from '../../plugins/errors.js';
import { clientContractsBatches, clientContractsReport } from './client-contracts.service.js';
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

const UNUSED_HEADERS: Record<Lang, string[]> = {
  en: [
    'User',
    'Phone number',
    'Sub-company',
    'Cost center',
    'Plan',
    'Cost in the months (€)',
    'Monthly cost (€)',
  ],
  fi: [
    'Käyttäjä',
    'Puhelinnumero',
    'Tytäryhtiö',
    'Kustannuspaikka',
    'Liittymätyyppi',
    'Kustannus kuukausina (€)',
    'Kuukausikustannus (€)',
  ],
};
const UNUSED_SHEET: Record<Lang, string> = { en: 'Unused subscriptions', fi: 'Käyttämättömät liittymät' };

const CONTRACT_HEADERS: Record<Lang, string[]> = {
  en: [
    'Client',
    'Business ID',
    'Status',
    'Term',
    'Start',
    'End',
    'Ended on',
    'Billing plan',
    'Billing cycle',
    'Plans',
    'Units',
    'Monthly cost (€)',
    'Yearly cost (€)',
  ],
  fi: [
    'Asiakas',
    'Y-tunnus',
    'Tila',
    'Kausi',
    'Alkaa',
    'Päättyy',
    'Päättyi',
    'Laskutusmalli',
    'Laskutusjakso',
    'Liittymiä',
    'Yksiköitä',
    'Kuukausikustannus (€)',
    'Vuosikustannus (€)',
  ],
};
const CONTRACT_SHEET: Record<Lang, string> = { en: 'Client contracts', fi: 'Asiakassopimukset' };

const COST_SUMMARY_HEADERS: Record<Lang, string[]> = {
  en: ['Cost center', 'Optimizable cost (€)', 'Other cost (€)', 'Total cost (€)'],
  fi: [
    'Kustannuspaikka',
    'Optimoitavat kustannukset (€)',
    'Muut kustannukset (€)',
    'Kustannukset yhteensä (€)',
  ],
};
const USAGE_SUMMARY_HEADERS: Record<Lang, string[]> = {
  en: [
    'Cost center',
    'Voice (min)',
    'SMS / MMS',
    'Data (MB)',
    'Roaming voice (min)',
    'Roaming data (MB)',
    'Usage cost (€)',
  ],
  fi: [
    'Kustannuspaikka',
    'Puhelut (min)',
    'Tekstiviestit / MMS',
    'Tiedonsiirto (Mt)',
    'Verkkovierailupuhelut (min)',
    'Verkkovierailudata (Mt)',
    'Käytön kustannus (€)',
  ],
};
const WHOLE: Record<Lang, string> = { en: 'Entire organization', fi: 'Koko organisaatio' };
const NO_CENTER: Record<Lang, string> = { en: '(no cost center)', fi: '(ei kustannuspaikkaa)' };

const OVERCHARGED_HEADERS: Record<Lang, string[]> = {
  en: ['User', 'Phone number', 'Month', 'Plan', 'Expected (€)', 'Billed (€)', 'Difference (€)'],
  fi: [
    'Käyttäjä',
    'Puhelinnumero',
    'Kuukausi',
    'Liittymätyyppi',
    'Odotettu (€)',
    'Laskutettu (€)',
    'Erotus (€)',
  ],
};

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

  const top = { permission: 'reports.topUsers' as const };
  r.get(
    '/api/reports/top-users',
    {
      config: top,
      schema: {
        tags,
        summary:
          "Top Users: a client's subscriptions by cost over a period, most expensive first (the dashboard's filters; optimizableOnly=true for the plan-driven costs only)",
        querystring: topUsersQuerySchema,
        response: { 200: topUsersListSchema },
      },
    },
    async (req) => topUsers(db, req.scope, req.query),
  );

  r.get(
    '/api/reports/top-users/export',
    {
      config: top,
      schema: {
        tags,
        summary: 'Top Users of the filters as an Excel file (.xlsx), every page',
        querystring: topUsersQuerySchema,
      },
    },
    async (req, reply) => {
      const { fileName, sheet } = await topUsersSheet(db, req.scope, req.query, requestLanguage(req));
      return sendWorkbook(req, reply, { fileName, sheets: [sheet] });
    },
  );

  const unused = { permission: 'reports.unusedMonthCount' as const };
  r.get(
    '/api/reports/unused-subscriptions',
    {
      config: unused,
      schema: {
        tags,
        summary:
          'Unused Subscriptions: billed in each of the last N months with costs and used in none (N chosen, else the client’s Unused Month Count)',
        querystring: unusedSubscriptionsQuerySchema,
        response: { 200: unusedSubscriptionsListSchema },
      },
    },
    async (req) => unusedSubscriptions(db, req.scope, req.query),
  );

  r.get(
    '/api/reports/unused-subscriptions/export',
    {
      config: unused,
      schema: {
        tags,
        summary: 'Unused Subscriptions of the filters as an Excel file (.xlsx), every page',
        querystring: unusedSubscriptionsQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      const q = req.query;
      const { head, pages } = await allPages((page, pageSize) =>
        unusedSubscriptions(db, req.scope, { ...q, page, pageSize }),
      );
      async function* cells() {
        for await (const items of pages) {
          yield items.map((i) => [
            i.userName == null ? null : safeText(i.userName),
            safeText(i.phoneNumber),
            i.subCompanyName == null ? null : safeText(i.subCompanyName),
            i.costCenterName == null ? null : safeText(i.costCenterName),
            i.planName == null ? null : safeText(i.planName),
            Number(i.cost),
            Number(i.monthlyCost),
          ]);
        }
      }
      return streamXlsx(req, reply, {
        fileName: `unused-subscriptions-${head.months}-months.xlsx`,
        sheet: UNUSED_SHEET[lang],
        columns: UNUSED_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i >= 5 ? NUM_FMT.euro : undefined,
        })),
        rows: cells(),
        table: true,
      });
    },
  );

  const contracts = { permission: 'reports.clientContracts' as const };
  r.get(
    '/api/reports/client-contracts',
    {
      config: contracts,
      schema: {
        tags,
        summary:
          "Client Contracts: every client's contracts, active or inactive, with plans and costs as saved",
        querystring: clientContractsQuerySchema,
        response: { 200: clientContractsListSchema },
      },
    },
    async (req) => clientContractsReport(db, req.query),
  );

  r.get(
    '/api/reports/client-contracts/export',
    {
      config: contracts,
      schema: {
        tags,
        summary: 'Client Contracts of the filters as an Excel file (.xlsx), in the report’s order',
        querystring: clientContractsQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      async function* cells() {
        for await (const batch of clientContractsBatches(db, req.query)) {
          yield batch.map((c) => [
            safeText(c.clientName),
            safeText(c.businessId),
            c.status,
            c.term == null ? null : safeText(c.term),
            c.startDate,
            c.endDate,
            c.endedOn,
            c.billingPlanName == null ? null : safeText(c.billingPlanName),
            c.billingCycle,
            c.numberOfPlans,
            c.units,
            c.monthlyCost == null ? null : Number(c.monthlyCost),
            c.yearlyCost == null ? null : Number(c.yearlyCost),
          ]);
        }
      }
      const date = new Date().toISOString().slice(0, 10);
      return streamXlsx(req, reply, {
        fileName: `client-contracts-${date}.xlsx`,
        sheet: CONTRACT_SHEET[lang],
        columns: CONTRACT_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i >= 11 ? NUM_FMT.euro : i === 9 || i === 10 ? '0' : undefined,
        })),
        rows: cells(),
        table: true,
      });
    },
  );

  const planType = { permission: 'reports.planType' as const };
  r.get(
    '/api/reports/base-plan-types',
    {
      config: planType,
      schema: {
        tags,
        summary:
          "Base Plan Types: a client's subscriptions and their cost per base plan group and plan group over a period",
        querystring: planTypesQuerySchema,
        response: { 200: planTypesListSchema },
      },
    },
    async (req) => planTypes(db, req.scope, req.query),
  );

  r.get(
    '/api/reports/base-plan-types/export',
    {
      config: planType,
      schema: {
        tags,
        summary: 'Base Plan Types of the filters as an Excel file (.xlsx)',
        querystring: planTypesQuerySchema,
      },
    },
    async (req, reply) => {
      const { fileName, sheet } = await planTypesSheet(db, req.scope, req.query, requestLanguage(req));
      return sendWorkbook(req, reply, { fileName, sheets: [sheet] });
    },
  );

  const rowName = (r: { costCenterId: number | null; name: string | null }, byCenter: boolean, lang: Lang) =>
    !byCenter ? WHOLE[lang] : r.name == null ? NO_CENTER[lang] : safeText(r.name);

  r.get(
    '/api/reports/cost-summaries',
    {
      config: { permission: 'reports.costSummary' },
      schema: {
        tags,
        summary:
          'Optimizable Cost Summaries: optimizable (plan-driven) and other costs over a month range, for the entire organization or by cost center',
        querystring: summaryQuerySchema,
        response: { 200: costSummaryListSchema },
      },
    },
    async (req) => costSummaries(db, req.scope, req.query),
  );
  r.get(
    '/api/reports/cost-summaries/export',
    {
      config: { permission: 'reports.costSummary' },
      schema: {
        tags,
        summary: 'Optimizable Cost Summaries as an Excel file (.xlsx)',
        querystring: summaryQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      const list = await costSummaries(db, req.scope, req.query);
      const byCenter = req.query.groupBy === 'costCenter';
      async function* cells() {
        yield list.items.map((i) => [
          rowName(i, byCenter, lang),
          Number(i.optimizableCost),
          Number(i.otherCost),
          Number(i.totalCost),
        ]);
      }
      return streamXlsx(req, reply, {
        fileName: `cost-summaries-${list.from}-${list.to}.xlsx`,
        sheet: lang === 'fi' ? 'Kustannusyhteenvedot' : 'Cost summaries',
        columns: COST_SUMMARY_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i > 0 ? NUM_FMT.euro : undefined,
          width: i === 0 ? 32 : 24,
        })),
        rows: cells(),
        table: true,
      });
    },
  );

  r.get(
    '/api/reports/usage-summaries',
    {
      config: { permission: 'reports.usageSummary' },
      schema: {
        tags,
        summary:
          'Optimizable Usage Summaries: voice, messages and data (domestic and roaming) and what the use cost, for the entire organization or by cost center',
        querystring: summaryQuerySchema,
        response: { 200: usageSummaryListSchema },
      },
    },
    async (req) => usageSummaries(db, req.scope, req.query),
  );
  r.get(
    '/api/reports/usage-summaries/export',
    {
      config: { permission: 'reports.usageSummary' },
      schema: {
        tags,
        summary: 'Optimizable Usage Summaries as an Excel file (.xlsx)',
        querystring: summaryQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      const list = await usageSummaries(db, req.scope, req.query);
      const byCenter = req.query.groupBy === 'costCenter';
      async function* cells() {
        yield list.items.map((i) => [
          rowName(i, byCenter, lang),
          i.voiceMinutes,
          i.sms,
          i.dataMb,
          i.roamingVoiceMinutes,
          i.roamingDataMb,
          Number(i.usageCost),
        ]);
      }
      return streamXlsx(req, reply, {
        fileName: `usage-summaries-${list.from}-${list.to}.xlsx`,
        sheet: lang === 'fi' ? 'Käyttöyhteenvedot' : 'Usage summaries',
        columns: USAGE_SUMMARY_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i === 6 ? NUM_FMT.euro : i > 0 ? '#,##0.00' : undefined,
          width: i === 0 ? 32 : 20,
        })),
        rows: cells(),
        table: true,
      });
    },
  );

  const overcharged = { permission: 'reports.overchargedPlans' as const };
  r.get(
    '/api/reports/overcharged-plans',
    {
      config: overcharged,
      schema: {
        tags,
        summary:
          "Overcharged Plans (invoice audit): subscription-months billed monthly fees above the plan's price for the client; the difference to claim back",
        querystring: overchargedQuerySchema,
        response: { 200: overchargedListSchema },
      },
    },
    async (req) => overchargedPlans(db, req.scope, req.query),
  );
  r.get(
    '/api/reports/overcharged-plans/export',
    {
      config: overcharged,
      schema: {
        tags,
        summary: 'Overcharged Plans of the filters as an Excel file (.xlsx), every page',
        querystring: overchargedQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      const q = req.query;
      const { head, pages } = await allPages((page, pageSize) =>
        overchargedPlans(db, req.scope, { ...q, page, pageSize }),
      );
      async function* cells() {
        for await (const items of pages) {
          yield items.map((i) => [
            i.userName == null ? null : safeText(i.userName),
            safeText(i.phoneNumber),
            i.month,
            safeText(i.planName),
            Number(i.expected),
            Number(i.billed),
            Number(i.difference),
          ]);
        }
      }
      return streamXlsx(req, reply, {
        fileName: `overcharged-plans-${head.from}-${head.to}.xlsx`,
        sheet: lang === 'fi' ? 'Ylihinnoitellut liittymät' : 'Overcharged plans',
        columns: OVERCHARGED_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i >= 4 ? NUM_FMT.euro : undefined,
        })),
        rows: cells(),
        table: true,
      });
    },
  );
}
