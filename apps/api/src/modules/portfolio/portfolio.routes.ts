import type { FastifyInstance } from 'fastify';
import {
  portfolioExportQuerySchema,
  portfolioListSchema,
  portfolioQuerySchema,
  type Lang,
} from '@kulu/shared';
import { NUM_FMT, safeText } from '../../lib/xlsx/index.js';
import { reportRoutes } from '../../lib/report-routes.js';
import { portfolio, portfolioAll } from './portfolio.service.js';

const HEADERS: Record<Lang, (month: string, lastMonth: string) => string[]> = {
  en: (m, l) => [
    'Company',
    'Business ID',
    `Cost ${m} (€)`,
    `Cost ${l} (€)`,
    'Change (%)',
    'Potential saving a month (€)',
    'Realised saving a month (€)',
    'Invoices missing',
    'Operators without an invoice',
    'Contract ends',
    'Operator contract ends',
    'Last optimization run',
    'Open alerts: high',
    'Open alerts: medium',
    'Open alerts: low',
  ],
  fi: (m, l) => [
    'Yritys',
    'Y-tunnus',
    `Kustannukset ${m} (€)`,
    `Kustannukset ${l} (€)`,
    'Muutos (%)',
    'Säästöpotentiaali kuukaudessa (€)',
    'Toteutunut säästö kuukaudessa (€)',
    'Puuttuvia laskuja',
    'Operaattorit ilman laskua',
    'Sopimus päättyy',
    'Operaattorisopimus päättyy',
    'Viimeisin optimointi',
    'Avoimet hälytykset: korkea',
    'Avoimet hälytykset: keskitaso',
    'Avoimet hälytykset: matala',
  ],
};
const SHEET: Record<Lang, string> = { en: 'Portfolio', fi: 'Asiakassalkku' };

/**
 * The provider's portfolio (issue 26): `GET /api/portfolio` → a page of rows, one per client the
 * caller may see, with totals; `/export` → every row of the filters as an Excel file.
 */
export async function portfolioRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { db } = deps.database;
  reportRoutes(app, {
    path: '/api/portfolio',
    permission: 'portfolio',
    tags: ['portfolio'],
    summary:
      "The provider's portfolio: per client the caller may see (a consultant: the assigned companies), this month's and last month's cost with the change, potential and realised saving a month, operators whose invoice of the month is missing, contract end dates, the last optimization run and open alerts by severity; sorted, searched, filtered and paged",
    exportSummary: 'The portfolio of the filters as an Excel file (.xlsx), every row in the list’s order',
    querystring: portfolioQuerySchema,
    exportQuerystring: portfolioExportQuerySchema,
    response: portfolioListSchema,
    list: (scope, q) => portfolio(db, scope, q, deps.now()),
    workbook: async (scope, q, lang) => {
      const list = await portfolioAll(db, scope, q, deps.now());
      const rows = list.items.map((i) => [
        safeText(i.companyName),
        safeText(i.businessId),
        Number(i.costThisMonth),
        Number(i.costLastMonth),
        i.costChange,
        Number(i.potentialSaving),
        Number(i.realisedSaving),
        i.missingInvoices,
        i.missingOperators.length ? safeText(i.missingOperators.join(', ')) : null,
        i.contractEndDate,
        i.operatorContractEndDate,
        i.lastRun ? (i.lastRun.finishedAt ?? i.lastRun.createdAt).slice(0, 10) : null,
        i.openAlerts.high,
        i.openAlerts.medium,
        i.openAlerts.low,
      ]);
      return {
        fileName: `portfolio-${list.month}.xlsx`,
        sheet: {
          name: SHEET[lang],
          columns: HEADERS[lang](list.month, list.lastMonth).map((header, i) => ({
            header,
            numFmt:
              i === 4
                ? NUM_FMT.decimal
                : i === 7
                  ? NUM_FMT.integer
                  : i >= 2 && i <= 6
                    ? NUM_FMT.euro
                    : undefined,
            width: i === 0 ? 32 : i === 8 ? 28 : 16,
          })),
          rows: [rows],
          table: true,
        },
      };
    },
  });
}
