import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  ACTIVITY_ACTION_LABELS,
  ACTIVITY_AREA_LABELS,
  ACTIVITY_ENTITY_LABELS,
  activityLabel,
  activityLogListSchema,
  businessDateTime,
  activityLogOptionsSchema,
  activityLogQuerySchema,
  clientContractsListSchema,
  clientContractsQuerySchema,
  costSummaryListSchema,
  helsinkiDay,
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
  type SummaryQuery,
} from '@kulu/shared';
import { unusedSubscriptions } from '../dashboards/unused.service.js';
import { planTypes } from '../dashboards/plan-types.service.js';
import { overchargedPlans } from '../dashboards/overcharged.service.js';
import { costSummaries, usageSummaries } from '../dashboards/summaries.service.js';
import {
  NUM_FMT,
  rowsOf,
  safeOrNull,
  safeText,
  type XlsxCell,
  type XlsxColumn,
} from '../../lib/xlsx/index.js';
import { reportRoutes, type ReportDef } from '../../lib/report-routes.js';
import { subscriptionCells } from '../../lib/subscription-names.js';
import { allPages, planTypesSheet, topUsers, topUsersSheet } from './report-sheets.js';
import { clientContractsBatches, clientContractsReport } from './client-contracts.service.js';
import { activityLogBatches, activityLogOptions, activityLogReport } from './activity-log.service.js';
import { declareRoutes } from '../../lib/routes.js';
import type { Db } from '../../db/client.js';

/** Headers of the activity log workbook, in the caller's language. */
const ACTIVITY_HEADERS: Record<Lang, string[]> = {
  en: ['Time (UTC)', 'User', 'Email', 'Client', 'Area', 'Action', 'Entity', 'Name', 'Before', 'After'],
  fi: [
    'Aika (UTC)',
    'Käyttäjä',
    'Sähköposti',
    'Asiakas',
    'Alue',
    'Toiminto',
    'Kohde',
    'Nimi',
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

const today = () => helsinkiDay(new Date());

/**
 * Reports (issue 12): `GET /api/reports/<report>` → `{ items, total, totals, page, pageSize }`, and
 * `/export` → the workbook of exactly what the filters show (its first rows are read before the file
 * starts, so the report's checks still answer with their status).
 */
/** `report({ name, … })`: the routes `/api/reports/<name>` and `/api/reports/<name>/export`. */
const reportMaker =
  (app: FastifyInstance, tags: string[]) =>
  <Q extends z.ZodType>({ name, ...def }: Omit<ReportDef<Q>, 'path' | 'tags'> & { name: string }) =>
    reportRoutes(app, { ...def, path: `/api/reports/${name}`, tags });
type Report = ReturnType<typeof reportMaker>;

export async function reportsRoutes(app: FastifyInstance) {
  const { db } = app.deps.database;
  const tags = ['reports'];
  const report = reportMaker(app, tags);
  activityReports(db, report, declareRoutes(app, tags));
  subscriptionReports(db, report);
  summaryReports(db, report);
}

/** The activity log and its filters' choices. */
function activityReports(db: Db, report: Report, route: ReturnType<typeof declareRoutes>) {
  report({
    name: 'activity-log',
    permission: 'activityLog',
    summary:
      'Activity log: who changed what and when, with before / after; filters by user, client, area and days',
    exportSummary: 'The activity log entries of the filters as an Excel file (.xlsx), newest first',
    querystring: activityLogQuerySchema,
    response: activityLogListSchema,
    list: async (scope, q) => activityLogReport(db, scope, q),
    workbook: async (scope, q, lang) => {
      const cells = () =>
        rowsOf(activityLogBatches(db, scope, q), (e) => [
          // As the page writes them (issue 37 item 19): Helsinki time, the area and action in words.
          businessDateTime(e.at, lang),
          safeOrNull(e.userName),
          safeOrNull(e.userEmail),
          safeOrNull(e.clientName),
          safeText(activityLabel(ACTIVITY_AREA_LABELS, e.area, lang)),
          safeText(activityLabel(ACTIVITY_ACTION_LABELS, e.action, lang)),
          safeText(activityLabel(ACTIVITY_ENTITY_LABELS, e.entity, lang)),
          safeOrNull(e.entityLabel),
          jsonCell(e.before),
          jsonCell(e.after),
        ]);
      return {
        fileName: `activity-log-${today()}.xlsx`,
        sheet: {
          name: ACTIVITY_SHEET[lang],
          columns: ACTIVITY_HEADERS[lang].map((header, i) => ({
            header,
            width: i >= 8 ? 60 : i === 0 ? 20 : i === 7 ? 32 : undefined,
          })),
          rows: cells(),
          table: true,
        },
      };
    },
  });

  route.get(
    '/api/reports/activity-log/options',
    'activityLog',
    {
      summary: "The activity log filters' choices: users and clients with entries, and the areas",
      response: { 200: activityLogOptionsSchema },
    },
    async (req) => activityLogOptions(db, req.scope),
  );
}

/** Top Users, Unused Subscriptions, Client Contracts and Base Plan Types. */
function subscriptionReports(db: Db, report: Report) {
  report({
    name: 'top-users',
    permission: 'reports.topUsers',
    summary:
      "Top Users: a client's subscriptions by cost over a period, most expensive first (the dashboard's filters; optimizableOnly=true for the plan-driven costs only)",
    exportSummary: 'Top Users of the filters as an Excel file (.xlsx), every page',
    querystring: topUsersQuerySchema,
    response: topUsersListSchema,
    list: (scope, q) => topUsers(db, scope, q),
    workbook: (scope, q, lang) => topUsersSheet(db, scope, q, lang),
  });

  report({
    name: 'unused-subscriptions',
    permission: 'reports.unusedMonthCount',
    summary:
      'Unused Subscriptions: billed in each of the last N months with costs and used in none (N chosen, else the client’s Unused Month Count)',
    exportSummary: 'Unused Subscriptions of the filters as an Excel file (.xlsx), every page',
    querystring: unusedSubscriptionsQuerySchema,
    response: unusedSubscriptionsListSchema,
    list: (scope, q) => unusedSubscriptions(db, scope, q),
    workbook: async (scope, q, lang) => {
      const { head, pages } = await allPages((page, pageSize) =>
        unusedSubscriptions(db, scope, { ...q, page, pageSize }),
      );
      const cells = () =>
        rowsOf(pages, (i) => [
          ...subscriptionCells(i),
          safeOrNull(i.planName),
          Number(i.cost),
          Number(i.monthlyCost),
        ]);
      return {
        fileName: `unused-subscriptions-${head.months}-months.xlsx`,
        sheet: {
          name: UNUSED_SHEET[lang],
          columns: UNUSED_HEADERS[lang].map((header, i) => ({
            header,
            numFmt: i >= 5 ? NUM_FMT.euro : undefined,
          })),
          rows: cells(),
          table: true,
        },
      };
    },
  });

  report({
    name: 'client-contracts',
    permission: 'reports.clientContracts',
    summary: "Client Contracts: every client's contracts, active or inactive, with plans and costs as saved",
    exportSummary: 'Client Contracts of the filters as an Excel file (.xlsx), in the report’s order',
    querystring: clientContractsQuerySchema,
    response: clientContractsListSchema,
    list: async (scope, q) => clientContractsReport(db, scope, q),
    workbook: async (scope, q, lang) => {
      const cells = () =>
        rowsOf(clientContractsBatches(db, scope, q), (c) => [
          safeText(c.clientName),
          safeText(c.businessId),
          c.status,
          safeOrNull(c.term),
          c.startDate,
          c.endDate,
          c.endedOn,
          safeOrNull(c.billingPlanName),
          c.billingCycle,
          c.numberOfPlans,
          c.units,
          c.monthlyCost == null ? null : Number(c.monthlyCost),
          c.yearlyCost == null ? null : Number(c.yearlyCost),
        ]);
      return {
        fileName: `client-contracts-${today()}.xlsx`,
        sheet: {
          name: CONTRACT_SHEET[lang],
          columns: CONTRACT_HEADERS[lang].map((header, i) => ({
            header,
            numFmt: i >= 11 ? NUM_FMT.euro : i === 9 || i === 10 ? NUM_FMT.integer : undefined,
          })),
          rows: cells(),
          table: true,
        },
      };
    },
  });

  report({
    name: 'base-plan-types',
    permission: 'reports.planType',
    summary:
      "Base Plan Types: a client's subscriptions and their cost per base plan group and plan group over a period",
    exportSummary: 'Base Plan Types of the filters as an Excel file (.xlsx)',
    querystring: planTypesQuerySchema,
    response: planTypesListSchema,
    list: (scope, q) => planTypes(db, scope, q),
    workbook: (scope, q, lang) => planTypesSheet(db, scope, q, lang),
  });
}

/** The cost and usage summaries and Overcharged Plans. */
function summaryReports(db: Db, report: Report) {
  /**
   * A summaries workbook: a row per cost center (or one for the entire organization), its name
   * first and then `values`; the file is named after the report and its months.
   */
  const summaryWorkbook = <I extends { name: string | null }>(
    list: { from: string; to: string; items: I[] },
    q: SummaryQuery,
    lang: Lang,
    def: { report: string; sheet: string; columns: XlsxColumn[]; values: (item: I) => XlsxCell[] },
  ) => {
    const byCenter = q.groupBy === 'costCenter';
    const rowName = (row: I) =>
      !byCenter ? WHOLE[lang] : row.name == null ? NO_CENTER[lang] : safeText(row.name);
    return {
      fileName: `${def.report}-${list.from}-${list.to}.xlsx`,
      sheet: {
        name: def.sheet,
        columns: def.columns,
        rows: [list.items.map((i) => [rowName(i), ...def.values(i)])],
        table: true,
      },
    };
  };

  report({
    name: 'cost-summaries',
    permission: 'reports.costSummary',
    summary:
      'Optimizable Cost Summaries: optimizable (plan-driven) and other costs over a month range, for the entire organization or by cost center',
    exportSummary: 'Optimizable Cost Summaries as an Excel file (.xlsx)',
    querystring: summaryQuerySchema,
    response: costSummaryListSchema,
    list: (scope, q) => costSummaries(db, scope, q),
    workbook: async (scope, q, lang) =>
      summaryWorkbook(await costSummaries(db, scope, q), q, lang, {
        report: 'cost-summaries',
        sheet: lang === 'fi' ? 'Kustannusyhteenvedot' : 'Cost summaries',
        columns: COST_SUMMARY_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i > 0 ? NUM_FMT.euro : undefined,
          width: i === 0 ? 32 : 24,
        })),
        values: (i) => [Number(i.optimizableCost), Number(i.otherCost), Number(i.totalCost)],
      }),
  });

  report({
    name: 'usage-summaries',
    permission: 'reports.usageSummary',
    summary:
      'Optimizable Usage Summaries: voice, messages and data (domestic and roaming) and what the use cost, for the entire organization or by cost center',
    exportSummary: 'Optimizable Usage Summaries as an Excel file (.xlsx)',
    querystring: summaryQuerySchema,
    response: usageSummaryListSchema,
    list: (scope, q) => usageSummaries(db, scope, q),
    workbook: async (scope, q, lang) =>
      summaryWorkbook(await usageSummaries(db, scope, q), q, lang, {
        report: 'usage-summaries',
        sheet: lang === 'fi' ? 'Käyttöyhteenvedot' : 'Usage summaries',
        columns: USAGE_SUMMARY_HEADERS[lang].map((header, i) => ({
          header,
          numFmt: i === 6 ? NUM_FMT.euro : i > 0 ? NUM_FMT.decimal : undefined,
          width: i === 0 ? 32 : 20,
        })),
        values: (i) => [
          i.voiceMinutes,
          i.sms,
          i.dataMb,
          i.roamingVoiceMinutes,
          i.roamingDataMb,
          Number(i.usageCost),
        ],
      }),
  });

  report({
    name: 'overcharged-plans',
    permission: 'reports.overchargedPlans',
    summary:
      "Overcharged Plans (invoice audit): subscription-months billed monthly fees above the plan's price for the client; the difference to claim back",
    exportSummary: 'Overcharged Plans of the filters as an Excel file (.xlsx), every page',
    querystring: overchargedQuerySchema,
    response: overchargedListSchema,
    list: (scope, q) => overchargedPlans(db, scope, q),
    workbook: async (scope, q, lang) => {
      const { head, pages } = await allPages((page, pageSize) =>
        overchargedPlans(db, scope, { ...q, page, pageSize }),
      );
      const cells = () =>
        rowsOf(pages, (i) => [
          safeOrNull(i.userName),
          safeText(i.phoneNumber),
          i.month,
          safeText(i.planName),
          Number(i.expected),
          Number(i.billed),
          Number(i.difference),
        ]);
      return {
        fileName: `overcharged-plans-${head.from}-${head.to}.xlsx`,
        sheet: {
          name: lang === 'fi' ? 'Ylihinnoitellut liittymät' : 'Overcharged plans',
          columns: OVERCHARGED_HEADERS[lang].map((header, i) => ({
            header,
            numFmt: i >= 4 ? NUM_FMT.euro : undefined,
          })),
          rows: cells(),
          table: true,
        },
      };
    },
  });
}
