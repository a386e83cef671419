import { and, asc, eq, sql } from 'drizzle-orm';
import { masterLabel, type Lang, type Permission, type SchedulableExportKind } from '@kulu/shared';
import {
  costCategories,
  costCenters,
  monthlyCostSummary,
  monthlyFacts,
  plans,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { NUM_FMT, safeOrNull, safeText, type XlsxSheet } from '../../lib/xlsx/index.js';
import { addMonths, resolveSlice } from '../dashboards/dashboards.service.js';
import { planTypesSheet, topUsersSheet } from '../reports/report-sheets.js';
import { optimizationSheet } from '../optimization/optimization.sheet.js';

/** What one archived export covers, as resolved when it was scheduled. */
export interface ArchiveRequest {
  kind: SchedulableExportKind;
  clientId: number;
  subCompanyId: number | null;
  from: string;
  to: string;
}

/** The permission each archived report needs besides `downloads` (the catalogue's report areas). */
export const ARCHIVE_PERMISSION: Record<SchedulableExportKind, Permission> = {
  'costs-usage': 'reports.costSummary',
  'optimizable-costs-usage': 'reports.costSummary',
  'plan-types': 'reports.planType',
  'top-users': 'reports.topUsers',
  'optimization-users': 'optimization.export',
};

const SUBSCRIPTION_HEADERS: Record<Lang, string[]> = {
  en: [
    'Month',
    'Phone number',
    'User',
    'Sub-company',
    'Cost center',
    'Plan',
    'Monthly fees (€)',
    'Usage (€)',
    'Other (€)',
    'Total (€)',
    'Voice (min)',
    'SMS / MMS',
    'Data (MB)',
  ],
  fi: [
    'Kuukausi',
    'Puhelinnumero',
    'Käyttäjä',
    'Tytäryhtiö',
    'Kustannuspaikka',
    'Liittymätyyppi',
    'Kuukausimaksut (€)',
    'Käyttö (€)',
    'Muut (€)',
    'Yhteensä (€)',
    'Puhelut (min)',
    'Tekstiviestit / MMS',
    'Tiedonsiirto (Mt)',
  ],
};
const CATEGORY_HEADERS: Record<Lang, string[]> = {
  en: ['Month', 'Cost category', 'Usage type', 'Cost (€)', 'Minutes', 'Pieces', 'Data (MB)'],
  fi: [
    'Kuukausi',
    'Kustannuslaji',
    'Käyttötyyppi',
    'Kustannus (€)',
    'Minuutit',
    'Kappaleet',
    'Tiedonsiirto (Mt)',
  ],
};
const SHEETS = {
  subscriptions: { en: 'Subscriptions by month', fi: 'Liittymät kuukausittain' },
  categories: { en: 'Cost categories', fi: 'Kustannuslajit' },
  optimized: { en: 'Optimized', fi: 'Optimoidut' },
  unoptimized: { en: 'Un-optimized', fi: 'Optimoimattomat' },
  unused: { en: 'No usage', fi: 'Ei käyttöä' },
} as const;
const NO_CATEGORY: Record<Lang, string> = { en: '(uncategorized)', fi: '(luokittelematon)' };

const f = monthlyFacts;
const ofType = (types: string[]) =>
  sql`${costCategories.usageType} in (${sql.join(
    types.map((t) => sql`${t}`),
    sql`, `,
  )})`;
const num = (s: string | null) => (s == null ? 0 : Number(s));

/**
 * All (or the optimizable) costs and usage of the period: a row per subscription and month, read a
 * month at a time through the dashboards' slice (client, sub-company, Scope; the optimizable cost
 * categories), and the month's costs per cost category, which also holds the invoice-level charges
 * that belong to no subscription.
 */
async function costsUsageSheets(
  db: Db,
  scope: Scope,
  r: ArchiveRequest,
  lang: Lang,
  optimizableOnly: boolean,
): Promise<XlsxSheet[]> {
  const slice = await resolveSlice(db, scope, {
    clientId: r.clientId,
    subCompanyId: r.subCompanyId ?? undefined,
    from: r.from,
    to: r.to,
    optimizableOnly,
  });
  const months: string[] = [];
  for (let m = slice.from; m <= slice.to; m = addMonths(m, 1)) months.push(m);

  async function* subscriptionRows() {
    for (const month of months) {
      const rows = await db
        .select({
          phone: subscriptions.phoneNumber,
          user: subscriptions.userName,
          subCompany: subCompanies.name,
          costCenter: costCenters.name,
          plan: plans.name,
          fees: sql<string>`coalesce(sum(${f.amount}) filter (where ${ofType(['monthly_fee'])}), 0)::text`,
          usage: sql<string>`coalesce(sum(${f.amount}) filter (where ${ofType(['voice', 'sms', 'mms', 'data'])}), 0)::text`,
          total: sql<string>`coalesce(sum(${f.amount}), 0)::text`,
          minutes: sql<string>`coalesce(sum(${f.quantity}) filter (where ${f.unit} = 'min'), 0)::text`,
          pieces: sql<string>`coalesce(sum(${f.quantity}) filter (where ${f.unit} = 'pcs' and ${ofType(['sms', 'mms'])}), 0)::text`,
          mb: sql<string>`coalesce(sum(${f.quantity}) filter (where ${f.unit} = 'mb'), 0)::text`,
        })
        .from(f)
        .innerJoin(subscriptions, eq(subscriptions.id, f.subscriptionId))
        .leftJoin(costCategories, eq(costCategories.id, f.costCategoryId))
        .leftJoin(subCompanies, eq(subCompanies.id, f.subCompanyId))
        .leftJoin(costCenters, eq(costCenters.id, f.costCenterId))
        .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
        .where(and(slice.where(f), eq(f.month, `${month}-01`)))
        .groupBy(subscriptions.id, subCompanies.id, costCenters.id, plans.id)
        .orderBy(asc(subscriptions.phoneNumber));
      yield rows.map((x) => {
        const cents = (s: string) => Math.round(Number(s) * 100);
        return [
          month,
          safeText(x.phone),
          safeText(x.user),
          safeOrNull(x.subCompany),
          safeOrNull(x.costCenter),
          safeOrNull(x.plan),
          Number(x.fees),
          Number(x.usage),
          (cents(x.total) - cents(x.fees) - cents(x.usage)) / 100,
          Number(x.total),
          num(x.minutes),
          num(x.pieces),
          num(x.mb),
        ];
      });
    }
  }

  const s = monthlyCostSummary;
  async function* categoryRows() {
    const rows = await db
      .select({
        month: sql<string>`to_char(${s.month}, 'YYYY-MM')`,
        name: lang === 'fi' ? costCategories.nameFi : costCategories.name,
        usageType: costCategories.usageType,
        amount: sql<string>`sum(${s.amount})::text`,
        minutes: sql<string>`sum(${s.minutes})::text`,
        pieces: sql<string>`sum(${s.pieces})::text`,
        mb: sql<string>`sum(${s.megabytes})::text`,
      })
      .from(s)
      .leftJoin(costCategories, eq(costCategories.id, s.costCategoryId))
      .where(slice.inPeriod(s))
      .groupBy(s.month, costCategories.id)
      .orderBy(asc(s.month), asc(costCategories.name));
    yield rows.map((x) => [
      x.month,
      x.name == null ? NO_CATEGORY[lang] : safeText(x.name),
      // The usage type in the reader's words, as the masters screens show it (never the code).
      x.usageType == null ? null : masterLabel(`masters.enums.usageType.${x.usageType}`, lang),
      Number(x.amount),
      num(x.minutes),
      num(x.pieces),
      num(x.mb),
    ]);
  }

  return [
    {
      name: SHEETS.subscriptions[lang],
      columns: SUBSCRIPTION_HEADERS[lang].map((header, i) => ({
        header,
        // SMS / MMS are counted: whole numbers (11), never 12.00.
        numFmt:
          i >= 6 && i <= 9
            ? NUM_FMT.euro
            : i === 11
              ? NUM_FMT.integer
              : i >= 10
                ? NUM_FMT.decimal
                : undefined,
        width: i === 2 || i === 5 ? 28 : undefined,
      })),
      rows: subscriptionRows(),
      table: true,
    },
    {
      name: SHEETS.categories[lang],
      columns: CATEGORY_HEADERS[lang].map((header, i) => ({
        header,
        numFmt: i === 3 ? NUM_FMT.euro : i === 5 ? NUM_FMT.integer : i >= 4 ? NUM_FMT.decimal : undefined,
        width: i === 1 ? 32 : undefined,
      })),
      rows: categoryRows(),
      table: true,
    },
  ];
}

/**
 * The sheets of one archived report, read through `scope` (the requesting user's, rebuilt when the
 * job runs): the report modules' own sheet builders, so a figure is never computed twice.
 */
export async function archiveSheets(
  db: Db,
  scope: Scope,
  r: ArchiveRequest,
  lang: Lang,
): Promise<XlsxSheet[]> {
  const filters = { clientId: r.clientId, subCompanyId: r.subCompanyId ?? undefined };
  switch (r.kind) {
    case 'costs-usage':
      return costsUsageSheets(db, scope, r, lang, false);
    case 'optimizable-costs-usage':
      return costsUsageSheets(db, scope, r, lang, true);
    case 'plan-types':
      return [(await planTypesSheet(db, scope, { ...filters, from: r.from, to: r.to }, lang)).sheet];
    case 'top-users':
      return [
        (await topUsersSheet(db, scope, { ...filters, from: r.from, to: r.to, page: 1, pageSize: 200 }, lang))
          .sheet,
      ];
    case 'optimization-users': {
      const tabs = ['optimized', 'unoptimized', 'unused'] as const;
      return Promise.all(
        tabs.map((tab) =>
          optimizationSheet(
            db,
            scope,
            { ...filters, tab, sort: 'monthlySaving', order: 'desc' },
            lang,
            SHEETS[tab][lang],
          ),
        ),
      );
    }
  }
}
