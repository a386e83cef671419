import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  portfolioExportQuerySchema,
  portfolioListSchema,
  portfolioQuerySchema,
  type Lang,
} from '@kulu/shared';
import { NUM_FMT, safeText } from '../../lib/xlsx/index.js';
import { sendWorkbook } from '../../lib/xlsx/http.js';
import { requestLanguage } from '../../plugins/errors.js';
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
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = app.deps;
  const { db } = deps.database;
  const tags = ['portfolio'];
  const config = { permission: 'portfolio' as const };

  r.get(
    '/api/portfolio',
    {
      config,
      schema: {
        tags,
        summary:
          "The provider's portfolio: per client the caller may see (a consultant: the assigned companies), this month's and last month's cost with the change, potential and realised saving a month, operators whose invoice of the month is missing, contract end dates, the last optimization run and open alerts by severity; sorted, searched, filtered and paged",
        querystring: portfolioQuerySchema,
        response: { 200: portfolioListSchema },
      },
    },
    async (req) => portfolio(db, req.scope, req.query, deps.now()),
  );

  r.get(
    '/api/portfolio/export',
    {
      config,
      schema: {
        tags,
        summary: 'The portfolio of the filters as an Excel file (.xlsx), every row in the list’s order',
        querystring: portfolioExportQuerySchema,
      },
    },
    async (req, reply) => {
      const lang = requestLanguage(req);
      const list = await portfolioAll(db, req.scope, req.query, deps.now());
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
      return sendWorkbook(req, reply, {
        fileName: `portfolio-${list.month}.xlsx`,
        sheets: [
          {
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
        ],
      });
    },
  );
}
