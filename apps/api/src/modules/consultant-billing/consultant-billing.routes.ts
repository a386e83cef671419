import type { FastifyInstance } from 'fastify';
import {
  consultantBillingListSchema,
  consultantBillingOptionsSchema,
  consultantBillingQuerySchema,
  type Lang,
} from '@kulu/shared';
import { NUM_FMT, safeText } from '../../lib/xlsx/index.js';
import { reportRoutes } from '../../lib/report-routes.js';
import {
  consultantBilling,
  consultantBillingAll,
  consultantBillingOptions,
} from './consultant-billing.service.js';
import { declareRoutes } from '../../lib/routes.js';

const HEADERS: Record<Lang, string[]> = {
  en: [
    'Consultant',
    'Business ID',
    'Company',
    'Plans',
    'Additional users',
    'Automated invoice uploads',
    'Is new',
    'Billing plan',
    'Plans (€)',
    'Additional users (€)',
    'Automated uploads (€)',
    'Set-up (€)',
    'Total (€)',
  ],
  fi: [
    'Konsultti',
    'Y-tunnus',
    'Yritys',
    'Liittymiä',
    'Lisäkäyttäjiä',
    'Automaattisia laskujen latauksia',
    'Uusi',
    'Laskutusmalli',
    'Liittymät (€)',
    'Lisäkäyttäjät (€)',
    'Automaattiset lataukset (€)',
    'Käyttöönotto (€)',
    'Yhteensä (€)',
  ],
};
const YES_NO: Record<Lang, [string, string]> = { en: ['Yes', 'No'], fi: ['Kyllä', 'Ei'] };
const SHEET: Record<Lang, string> = { en: 'Consultant billing', fi: 'Konsulttilaskutus' };

/**
 * Consultant Billing (issue 12): `GET /api/reports/consultant-billing` → `{ items, total, totals }`
 * for a month (and a consultant), its filter choices, and `/export` → the workbook of the filters.
 */
export async function consultantBillingRoutes(app: FastifyInstance) {
  const deps = app.deps;
  const { db } = deps.database;
  const tags = ['reports'];
  const route = declareRoutes(app, tags);
  const config = { permission: 'consultantBilling' as const };

  reportRoutes(app, {
    path: '/api/reports/consultant-billing',
    permission: config.permission,
    tags,
    summary:
      "Consultant Billing: per consultant and month, each company it manages with plans, additional users, automated invoice uploads, whether it is new, and the totals from the consultant's billing plan",
    exportSummary: 'Consultant Billing of the filters as an Excel file (.xlsx), every row with a totals row',
    querystring: consultantBillingQuerySchema,
    response: consultantBillingListSchema,
    list: (scope, q) => consultantBilling(db, scope, q, deps.now()),
    workbook: async (scope, q, lang) => {
      const list = await consultantBillingAll(db, scope, q, deps.now());
      const [yes, no] = YES_NO[lang];
      const rows = list.items.map((i) => [
        safeText(i.consultantName),
        safeText(i.businessId),
        safeText(i.companyName),
        i.plans,
        i.additionalUsers,
        i.automatedUploads,
        i.isNew ? yes : no,
        i.billingPlanName == null ? null : safeText(i.billingPlanName),
        Number(i.plansCost),
        Number(i.additionalUsersCost),
        Number(i.automatedUploadsCost),
        Number(i.setUpCost),
        Number(i.total),
      ]);
      const t = list.totals;
      const totals = [
        lang === 'fi' ? 'Yhteensä' : 'Total',
        null,
        null,
        t.plans,
        t.additionalUsers,
        t.automatedUploads,
        t.newCompanies,
        null,
        null,
        null,
        null,
        null,
        Number(t.total),
      ];
      return {
        fileName: `consultant-billing-${list.month}.xlsx`,
        sheet: {
          name: SHEET[lang],
          columns: HEADERS[lang].map((header, i) => ({
            header,
            numFmt: i >= 8 ? NUM_FMT.euro : i >= 3 && i <= 5 ? NUM_FMT.integer : undefined,
            width: i === 0 || i === 2 ? 30 : undefined,
          })),
          rows: [list.items.length ? [...rows, totals] : []],
          table: true,
        },
      };
    },
  });

  route.get(
    '/api/reports/consultant-billing/options',
    config,
    {
      summary:
        'The consultants the caller may choose: every one for the provider admin, its own for a consultant',
      response: { 200: consultantBillingOptionsSchema },
    },
    async (req) => consultantBillingOptions(db, req.scope),
  );
}
