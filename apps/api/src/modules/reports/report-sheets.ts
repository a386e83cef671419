import {
  INVOICE_LEVEL_ROW,
  type Lang,
  type PlanTypesQuery,
  type ReportCostTotals,
  type TopUsersList,
  type TopUsersQuery,
} from '@kulu/shared';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { NUM_FMT, safeText, type XlsxSheet } from '../../lib/xlsx/index.js';
import { subscriptionCells } from '../../lib/subscription-names.js';
import { costTotals, resolveSlice, subscriptionsOfSlice } from '../dashboards/dashboards.service.js';
import { planTypes } from '../dashboards/plan-types.service.js';

/**
 * Report sheets that more than one export writes: the report's own export and the report archive's
 * workbooks (modules/report-exports) build them here, so both files hold the same figures.
 */

const TOP_HEADERS: Record<Lang, string[]> = {
  en: ['Rank', 'User', 'Phone number', 'Sub-company', 'Cost center', 'Cost (€)'],
  fi: ['Sija', 'Käyttäjä', 'Puhelinnumero', 'Tytäryhtiö', 'Kustannuspaikka', 'Kustannus (€)'],
};
const TOP_SHEET: Record<Lang, string> = { en: 'Top users', fi: 'Suurimmat käyttäjät' };

/**
 * Top Users: the dashboard's per-subscription costs (the same query, Scope and cache), most
 * expensive first, ranked; the totals are the filters' total cost and its invoice-level charges.
 */
export async function topUsers(db: Db, scope: Scope, q: TopUsersQuery): Promise<TopUsersList> {
  const slice = await resolveSlice(db, scope, q);
  const [list, money] = await Promise.all([
    subscriptionsOfSlice(db, scope, slice, { ...q, sort: 'cost', order: 'desc' }),
    costTotals(db, slice),
  ]);
  const first = (q.page - 1) * q.pageSize;
  return {
    clientId: list.clientId,
    from: list.from,
    to: list.to,
    items: list.items.map((i, n) => ({ ...i, rank: first + n + 1 })),
    total: list.total,
    totals: { ...money, subscriptions: list.total },
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Rows per query when an export walks a paged report. */
const EXPORT_PAGE = 200;

/**
 * Every page of a paged report for its export: the first is fetched before the file starts, so the
 * report's own checks (client, Scope, period) still answer with their status and message.
 */
export async function allPages<P extends { items: unknown[]; total: number }>(
  fetch: (page: number, pageSize: number) => Promise<P>,
): Promise<{ head: P; pages: AsyncGenerator<P['items']> }> {
  const head = await fetch(1, EXPORT_PAGE);
  async function* pages() {
    let page = head;
    for (let n = 1; ; n++) {
      yield page.items;
      if (n * EXPORT_PAGE >= page.total) return;
      page = await fetch(n + 1, EXPORT_PAGE);
    }
  }
  return { head, pages: pages() };
}

const PLAN_TYPE_HEADERS: Record<Lang, string[]> = {
  en: ['Base plan group', 'Plan group', 'Subscriptions', 'Cost (€)'],
  fi: ['Perusliittymäryhmä', 'Liittymäryhmä', 'Liittymiä', 'Kustannus (€)'],
};
const PLAN_TYPE_SHEET: Record<Lang, string> = { en: 'Base plan types', fi: 'Perusliittymätyypit' };
const NO_GROUP: Record<Lang, string> = { en: '(no group)', fi: '(ei ryhmää)' };

/**
 * The sheet's closing row of invoice-level charges (none when the period has none), the cost in
 * column `costAt`: the cost column then adds up to the report's total cost.
 */
function invoiceLevelRows(
  totals: ReportCostTotals,
  width: number,
  costAt: number,
  labelAt: number,
  lang: Lang,
) {
  if (Number(totals.invoiceLevelCost) === 0) return [];
  const row: Array<string | number | null> = Array.from({ length: width }, () => null);
  row[labelAt] = INVOICE_LEVEL_ROW[lang];
  row[costAt] = Number(totals.invoiceLevelCost);
  return [row];
}

/** A report sheet and the name its file gets. */
export interface NamedSheet {
  fileName: string;
  sheet: XlsxSheet;
}

/** Top Users of the filters, every page, ranked. */
export async function topUsersSheet(db: Db, scope: Scope, q: TopUsersQuery, lang: Lang): Promise<NamedSheet> {
  // The report's own checks (client, Scope, period) answer before the file starts.
  const { head, pages } = await allPages((page, pageSize) => topUsers(db, scope, { ...q, page, pageSize }));
  async function* cells() {
    for await (const items of pages) {
      yield items.map((i) => [i.rank, ...subscriptionCells(i), Number(i.cost)]);
    }
    yield invoiceLevelRows(head.totals, 6, 5, 1, lang);
  }
  return {
    fileName: `top-users-${head.from}-${head.to}.xlsx`,
    sheet: {
      name: TOP_SHEET[lang],
      columns: TOP_HEADERS[lang].map((header, i) => ({
        header,
        numFmt: i === 5 ? NUM_FMT.euro : i === 0 ? NUM_FMT.integer : undefined,
      })),
      rows: cells(),
      table: true,
    },
  };
}

/** Base Plan Types of the filters: subscriptions and cost per base plan group and plan group. */
export async function planTypesSheet(
  db: Db,
  scope: Scope,
  q: PlanTypesQuery,
  lang: Lang,
): Promise<NamedSheet> {
  const list = await planTypes(db, scope, q);
  const rows: Array<Array<string | number | null>> = list.items.map((i) => [
    i.basePlanGroupName == null ? NO_GROUP[lang] : safeText(i.basePlanGroupName),
    i.planGroupName == null ? NO_GROUP[lang] : safeText(i.planGroupName),
    i.subscriptions,
    Number(i.cost),
  ]);
  rows.push(...invoiceLevelRows(list.totals, 4, 3, 0, lang));
  return {
    fileName: `base-plan-types-${list.from}-${list.to}.xlsx`,
    sheet: {
      name: PLAN_TYPE_SHEET[lang],
      columns: PLAN_TYPE_HEADERS[lang].map((header, i) => ({
        header,
        numFmt: i === 3 ? NUM_FMT.euro : i === 2 ? NUM_FMT.integer : undefined,
        width: i < 2 ? 32 : undefined,
      })),
      rows: [rows],
      table: true,
    },
  };
}
