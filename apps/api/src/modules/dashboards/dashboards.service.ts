import {
  and,
  asc,
  desc,
  eq,
  exists,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import {
  DASHBOARD_TOP_USERS,
  addMonths,
  helsinkiMonth,
  OPTIMIZABLE_USAGE_TYPES,
  RECONCILIATION_TOLERANCE,
  monthSpan,
  type CostUsage,
  type CostUsageCostElement,
  type CostUsageMonth,
  type CostUsageQuery,
  type CostUsageSubscriptionList,
  type CostUsageSubscriptionsQuery,
  type UsageTotals,
} from '@kulu/shared';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  costCategories,
  costCenters,
  costElements,
  invoices,
  monthlyCostSummary,
  monthlyFacts,
  operators,
  subCompanies,
  subscriptionCategoryMonthCost,
  subscriptionMonthCost,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { SUBSCRIPTION_NAMES } from '../../lib/subscription-names.js';
import { cachedAnswer } from './dashboard-cache.js';
import { euros, toCents } from './money.js';

type Lang = 'en' | 'fi';

/** `YYYY-MM` shifted by `n` months (the shared calendar helper, kept importable from here). */
export { addMonths };

const firstDay = (month: string) => `${month}-01`;

/** Euros as a decimal string to integer cents, and back. */
const num = (s: string | null | undefined) => (s == null ? 0 : Number(s));

/** The pre-aggregate every figure but the subscriptions is read from (kept by triggers on monthly_facts). */
const f = monthlyCostSummary;
const costSum = sql<string>`coalesce(sum(${f.amount}), 0)::text`;

/** Columns of a table of facts the filters apply to (the facts and both pre-aggregates). */
interface FactColumns {
  clientId: PgColumn;
  /** The Scope's operator (the one chosen at sign-in) limits every table of facts. */
  operatorId: PgColumn;
  subCompanyId: PgColumn;
  costCenterId: PgColumn;
  costCategoryId?: PgColumn;
  costElementId?: PgColumn;
}

/** A request's client, period and filters, checked against its Scope. */
export interface Slice {
  clientId: number;
  from: string;
  to: string;
  /** Every condition but the period, on one of the tables of facts. */
  where: (t: FactColumns) => SQL;
  /** Every condition and the period (its months `from` to `to`), on one of the tables of facts. */
  inPeriod: (t: FactColumns & { month: PgColumn }) => SQL;
  /**
   * Which per-subscription figures answer the filters: `subscription` sums over every cost element,
   * `category` keeps the cost category apart (category and usage type filters), `element` needs the
   * facts themselves (a cost element filter).
   */
  grain: 'subscription' | 'category' | 'element';
}

/**
 * The client (provider users name it, else 400; client users get their own), the filters limited
 * by the Scope (a client, sub-company or cost center outside it answers 404) and the period:
 * without `from`/`to` the 12 months up to the latest month with facts (or the current month).
 */
export async function resolveSlice(
  db: Db,
  scope: Scope,
  q: CostUsageQuery,
  now: Date = new Date(),
): Promise<Slice> {
  const client = await scope.clientOfFilters(q);

  const ofUsageType = q.usageType
    ? db
        .select({ id: costCategories.id })
        .from(costCategories)
        .where(eq(costCategories.usageType, q.usageType))
    : undefined;
  const optimizable = q.optimizableOnly
    ? db
        .select({ id: costCategories.id })
        .from(costCategories)
        .where(inArray(costCategories.usageType, [...OPTIMIZABLE_USAGE_TYPES]))
    : undefined;
  const where = (t: FactColumns): SQL =>
    and(
      scope.ofClient(client, t, q),
      q.costCategoryId != null && t.costCategoryId ? eq(t.costCategoryId, q.costCategoryId) : undefined,
      q.costElementId != null && t.costElementId ? eq(t.costElementId, q.costElementId) : undefined,
      ofUsageType && t.costCategoryId ? inArray(t.costCategoryId, ofUsageType) : undefined,
      optimizable && t.costCategoryId ? inArray(t.costCategoryId, optimizable) : undefined,
    )!;

  let { from, to } = q;
  if (!to) {
    if (from) to = addMonths(from, 11);
    else {
      const [latest] = await db
        .select({ m: sql<string | null>`to_char(max(${f.month}), 'YYYY-MM')` })
        .from(f)
        .where(where(f));
      to = latest?.m ?? helsinkiMonth(now);
    }
  }
  from ??= addMonths(to, -11);
  const grain =
    q.costElementId != null
      ? 'element'
      : q.costCategoryId != null || q.usageType != null || q.optimizableOnly
        ? 'category'
        : 'subscription';
  const inPeriod = (t: FactColumns & { month: PgColumn }): SQL =>
    and(where(t), gte(t.month, firstDay(from)), lte(t.month, firstDay(to)))!;
  return { clientId: client, from, to, where, inPeriod, grain };
}

/**
 * Total cost: the one definition every dashboard and report answers with (issue 22). Every invoice
 * line of the slice's period under its filters and Scope, read from the summary pre-aggregate: the
 * subscriptions' lines and the invoice-level charges (lines without a subscription, e.g. a
 * paper-invoice fee), which a report listing subscriptions shows as their own figure. The dashboard
 * and the cost summaries sum the same rows per month, category and cost center.
 */
export async function costTotals(db: Db, slice: Slice): Promise<{ cost: string; invoiceLevelCost: string }> {
  const { inPeriod } = slice;
  const [[all], [invoiceLevel]] = await Promise.all([
    db.select({ cost: costSum }).from(f).where(inPeriod(f)),
    db
      .select({ cost: sql<string>`coalesce(sum(${monthlyFacts.amount}), 0)::text` })
      .from(monthlyFacts)
      .where(and(inPeriod(monthlyFacts), isNull(monthlyFacts.subscriptionId))),
  ]);
  return { cost: euros(toCents(all?.cost)), invoiceLevelCost: euros(toCents(invoiceLevel?.cost)) };
}

/** The order of a subscriptions list: its sort key's column, ties by subscription id. */
const SORT_COLUMNS = {
  userName: subscriptions.userName,
  phoneNumber: subscriptions.phoneNumber,
  subCompanyName: subCompanies.name,
  costCenterName: costCenters.name,
} as const;

/**
 * The subscriptions with costs in the slice and each one's cost for the period, one page of them
 * (names from the subscription as it is now). Sorted by cost without a search, the ranking runs
 * on the pre-aggregate alone and only the page's rows are joined to their names.
 */
async function subscriptionCosts(
  db: Db,
  slice: Slice,
  page: Pick<CostUsageSubscriptionsQuery, 'sort' | 'order' | 'q' | 'page' | 'pageSize'>,
) {
  const t =
    slice.grain === 'element'
      ? monthlyFacts
      : slice.grain === 'category'
        ? subscriptionCategoryMonthCost
        : subscriptionMonthCost;
  // The sum to rank by: integer cents on the pre-aggregates (fast), the numeric amount on the facts;
  // `sumEuros` is the same sum as exact euros with two decimals.
  const sum = 'cents' in t ? sql`sum(${t.cents})` : sql`sum(${monthlyFacts.amount})`;
  const sumEuros = 'cents' in t ? sql`(${sum}::numeric / 100)::numeric(18, 2)` : sum;
  const where = and(slice.inPeriod(t), isNotNull(t.subscriptionId));
  const direction = page.order === 'desc' ? desc : asc;
  const offset = (page.page - 1) * page.pageSize;
  const search = page.q
    ? or(
        ilike(subscriptions.phoneNumber, containsPattern(page.q)),
        ilike(subscriptions.userName, containsPattern(page.q)),
      )
    : undefined;

  if (page.sort === 'cost' && !search) {
    const ranked = db
      .select({
        id: sql<number>`${t.subscriptionId}`.as('ranked_id'),
        cost: sql<string>`${sumEuros}::text`.as('ranked_cost'),
        total: sql<number>`(count(*) over ())::int`.as('ranked_total'),
        totalCost: sql<string>`(sum(${sumEuros}) over ())::text`.as('ranked_total_cost'),
      })
      .from(t)
      .where(where)
      .groupBy(t.subscriptionId)
      .orderBy(direction(sum), asc(t.subscriptionId))
      .limit(page.pageSize)
      .offset(offset)
      .as('ranked');
    const rows = await db
      .select({
        ...SUBSCRIPTION_NAMES,
        subscriptionId: ranked.id,
        cost: ranked.cost,
        total: ranked.total,
        totalCost: ranked.totalCost,
      })
      .from(ranked)
      .innerJoin(subscriptions, eq(subscriptions.id, ranked.id))
      .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
      .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId));
    const sign = page.order === 'desc' ? -1 : 1;
    rows.sort((a, b) => sign * (toCents(a.cost) - toCents(b.cost)) || a.subscriptionId - b.subscriptionId);
    if (rows.length || offset === 0) return pageOf(rows);
    // Past the last page: the count and sum still say what there is.
    const [all] = await db
      .select({ total: sql<number>`count(*)::int`, totalCost: sql<string>`coalesce(sum(cost), 0)::text` })
      .from(
        db
          .select({ cost: sql<string>`${sumEuros}`.as('cost') })
          .from(t)
          .where(where)
          .groupBy(t.subscriptionId)
          .as('all_costs'),
      );
    return { items: [], total: all?.total ?? 0, totalCost: euros(toCents(all?.totalCost)) };
  }

  const ranked = db
    .select({
      id: sql<number>`${t.subscriptionId}`.as('ranked_id'),
      cost: sql<string>`${sumEuros}`.as('ranked_cost'),
    })
    .from(t)
    .where(where)
    .groupBy(t.subscriptionId)
    .as('ranked');
  const by = page.sort === 'cost' ? sql`${ranked.cost}` : SORT_COLUMNS[page.sort];
  const rows = await db
    .select({
      ...SUBSCRIPTION_NAMES,
      subscriptionId: ranked.id,
      cost: sql<string>`${ranked.cost}::text`,
      total: sql<number>`(count(*) over ())::int`,
      totalCost: sql<string>`(sum(${ranked.cost}) over ())::text`,
    })
    .from(ranked)
    .innerJoin(subscriptions, eq(subscriptions.id, ranked.id))
    .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
    .where(search)
    .orderBy(sql`${by} ${sql.raw(page.order)} nulls last`, asc(ranked.id))
    .limit(page.pageSize)
    .offset(offset);
  return pageOf(rows);
}

function pageOf<R extends { cost: string; total: number; totalCost: string }>(rows: R[]) {
  return {
    items: rows.map(({ total: _t, totalCost: _c, cost, ...r }) => ({ ...r, cost: euros(toCents(cost)) })),
    total: rows[0]?.total ?? 0,
    totalCost: euros(toCents(rows[0]?.totalCost)),
  };
}

/**
 * The subscriptions behind the dashboard's figures (issue 10: "show all" of the top users and the
 * drill-down of a bar or slice): every subscription with costs under the same filters and Scope,
 * its cost in the period, paged, sorted and searched.
 */
export async function costUsageSubscriptions(
  db: Db,
  scope: Scope,
  q: CostUsageSubscriptionsQuery,
): Promise<CostUsageSubscriptionList> {
  return subscriptionsOfSlice(db, scope, await resolveSlice(db, scope, q), q);
}

/** `costUsageSubscriptions` for a slice already resolved. */
export async function subscriptionsOfSlice(
  db: Db,
  scope: Scope,
  slice: Slice,
  q: CostUsageSubscriptionsQuery,
): Promise<CostUsageSubscriptionList> {
  const list = await cachedAnswer(db, slice.clientId, ['subscriptions', cacheKeyOf(scope, slice, q)], () =>
    subscriptionCosts(db, slice, q),
  );
  return {
    clientId: slice.clientId,
    from: slice.from,
    to: slice.to,
    ...list,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/**
 * The cost-and-usage dashboard (issue 10): what the client paid in the period, per month, cost
 * category, cost center, sub-company and subscription, the usage behind it, and the like-with-like
 * change against the previous period, read through the request's Scope (see `resolveSlice`).
 *
 * Two queries after the checks, run side by side on the pool: one pass over the summary
 * pre-aggregate with grouping sets (months × categories over both periods, cost centers and
 * sub-companies over the period), and the top users from the per-subscription pre-aggregate.
 */
export async function costUsage(db: Db, scope: Scope, q: CostUsageQuery, lang: Lang): Promise<CostUsage> {
  const slice = await resolveSlice(db, scope, q);
  return cachedAnswer(db, slice.clientId, ['cost-usage', cacheKeyOf(scope, slice, q), lang], async () => {
    const [figures, unreconciled] = await Promise.all([
      computeCostUsage(db, slice, lang),
      unreconciledInvoices(db, slice),
    ]);
    return { ...figures, unreconciledInvoices: unreconciled };
  });
}

/** The most invoices with a difference the dashboard names (a period rarely has more than one). */
export const UNRECONCILED_NAMED = 20;

/**
 * The invoices with costs in the slice whose own figures show a difference above one cent
 * (issue 38): the dashboard's period includes an unexplained difference. Read from the client's few
 * such invoices (a partial index), each kept when it has facts in the slice.
 */
async function unreconciledInvoices(db: Db, slice: Slice): Promise<CostUsage['unreconciledInvoices']> {
  const rows = await db
    .select({
      id: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      operatorName: operators.name,
      difference: sql<string>`${invoices.difference}::text`,
    })
    .from(invoices)
    .leftJoin(operators, eq(operators.id, invoices.operatorId))
    .where(
      and(
        eq(invoices.clientId, slice.clientId),
        // The literal of the partial index's predicate (a parameter would not match it).
        sql`abs(${invoices.difference}) > ${sql.raw(String(RECONCILIATION_TOLERANCE))}`,
        exists(
          db
            .select({ one: sql`1` })
            .from(monthlyFacts)
            .where(and(eq(monthlyFacts.invoiceId, invoices.id), slice.inPeriod(monthlyFacts))),
        ),
      ),
    )
    .orderBy(asc(invoices.invoiceDate), asc(invoices.id))
    .limit(UNRECONCILED_NAMED);
  return rows.map((r) => ({ ...r, difference: euros(toCents(r.difference)) }));
}

/** The most cost elements the dashboard's filter offers (largest cost first). */
export const COST_ELEMENT_CHOICES = 500;

/**
 * The cost elements with cost in the slice under every filter but the cost element itself, largest
 * cost first: what the dashboard's cost-element filter offers (the same Scope and period rules as
 * the dashboard; a cost element of another client never shows).
 */
export async function costUsageCostElements(
  db: Db,
  scope: Scope,
  q: CostUsageQuery,
): Promise<CostUsageCostElement[]> {
  const slice = await resolveSlice(db, scope, { ...q, costElementId: undefined });
  const total = sql`sum(${monthlyFacts.amount})`;
  const rows = await db
    .select({
      costElementId: monthlyFacts.costElementId,
      name: costElements.name,
      cost: sql<string>`coalesce(${total}, 0)::text`,
    })
    .from(monthlyFacts)
    .innerJoin(costElements, eq(costElements.id, monthlyFacts.costElementId))
    .where(slice.inPeriod(monthlyFacts))
    .groupBy(monthlyFacts.costElementId, costElements.name)
    .orderBy(desc(total), asc(costElements.name), asc(monthlyFacts.costElementId))
    .limit(COST_ELEMENT_CHOICES);
  return rows.map((r) => ({ costElementId: r.costElementId, name: r.name, cost: euros(toCents(r.cost)) }));
}

/** What an answer depends on besides the data: the filters, the period and the caller's limits. */
const cacheKeyOf = (scope: Scope, slice: Slice, q: object) => [
  q,
  slice.from,
  slice.to,
  scope.subCompanyIds,
  scope.costCenterIds,
  scope.operatorId,
];

/**
 * The cost-and-usage cells of the slice from `previousFrom` to its end: a row per month × category,
 * per cost center and per sub-company (`set`: 3, 1, 2), the last two with their cost in the period.
 */
function costUsageCells(db: Db, slice: Slice, previousFrom: string) {
  const { from, to } = slice;
  const inPeriod = sql`${f.month} >= ${firstDay(from)}`;
  // grouping(cost center, sub-company): 3 = a month × category cell, 1 = a cost center, 2 = a sub-company.
  const set = sql<number>`grouping(${f.costCenterId}, ${f.subCompanyId})::int`;
  return db
    .select({
      set,
      month: sql<string>`to_char(${f.month}, 'YYYY-MM')`,
      costCategoryId: f.costCategoryId,
      name: costCategories.name,
      nameFi: costCategories.nameFi,
      usageType: costCategories.usageType,
      zone: costCategories.zone,
      costCenterId: f.costCenterId,
      costCenterName: costCenters.name,
      subCompanyId: f.subCompanyId,
      subCompanyName: subCompanies.name,
      cost: costSum,
      periodCost: sql<string>`coalesce(sum(${f.amount}) filter (where ${inPeriod}), 0)::text`,
      periodRows: sql<number>`(count(*) filter (where ${inPeriod}))::int`,
      voice: sql<string>`sum(${f.minutes})::text`,
      sms: sql<string>`coalesce(sum(${f.pieces}) filter (where ${costCategories.usageType} = 'sms'), 0)::text`,
      data: sql<string>`sum(${f.megabytes})::text`,
    })
    .from(f)
    .leftJoin(costCategories, eq(costCategories.id, f.costCategoryId))
    .leftJoin(costCenters, eq(costCenters.id, f.costCenterId))
    .leftJoin(subCompanies, eq(subCompanies.id, f.subCompanyId))
    .where(and(slice.where(f), gte(f.month, firstDay(previousFrom)), lte(f.month, firstDay(to))))
    .groupBy(
      sql`grouping sets ((${f.month}, ${f.costCategoryId}, ${costCategories.name}, ${costCategories.nameFi},
        ${costCategories.usageType}, ${costCategories.zone}), (${f.costCenterId}, ${costCenters.name}),
        (${f.subCompanyId}, ${subCompanies.name}))`,
    );
}

async function computeCostUsage(
  db: Db,
  slice: Slice,
  lang: Lang,
): Promise<Omit<CostUsage, 'unreconciledInvoices'>> {
  const { clientId, from, to } = slice;
  const span = monthSpan(from, to);
  const previousFrom = addMonths(from, -span);
  const previousTo = addMonths(from, -1);

  const [cells, users] = await Promise.all([
    costUsageCells(db, slice, previousFrom),
    subscriptionCosts(db, slice, { sort: 'cost', order: 'desc', page: 1, pageSize: DASHBOARD_TOP_USERS }),
  ]);

  const months = new Map<
    string,
    { cents: number; voice: number; sms: number; data: number; cats: Map<number | null, number> }
  >();
  for (let m = from; monthSpan(m, to) >= 1; m = addMonths(m, 1)) {
    months.set(m, { cents: 0, voice: 0, sms: 0, data: 0, cats: new Map() });
  }
  /** Cost of each month with facts, in both periods (for the like-with-like change). */
  const invoiced = new Map<string, number>();
  const categories = new Map<number | null, { name: string; usageType: string | null; cents: number }>();
  const centers: Array<{ id: number | null; name: string | null; cents: number }> = [];
  const subs: Array<{ id: number | null; name: string | null; cents: number }> = [];
  const usage = { voice: 0, sms: 0, data: 0, rVoice: 0, rSms: 0, rData: 0, rCents: 0 };
  let totalCents = 0;
  let previousCents = 0;
  for (const c of cells) {
    if (c.set !== 3) {
      if (c.periodRows === 0) continue;
      const row =
        c.set === 1
          ? { id: c.costCenterId, name: c.costCenterName }
          : { id: c.subCompanyId, name: c.subCompanyName };
      (c.set === 1 ? centers : subs).push({ ...row, cents: toCents(c.periodCost) });
      continue;
    }
    const cents = toCents(c.cost);
    invoiced.set(c.month, (invoiced.get(c.month) ?? 0) + cents);
    const m = months.get(c.month);
    if (!m) {
      previousCents += cents;
      continue;
    }
    totalCents += cents;
    m.cents += cents;
    m.voice += num(c.voice);
    m.sms += num(c.sms);
    m.data += num(c.data);
    m.cats.set(c.costCategoryId, (m.cats.get(c.costCategoryId) ?? 0) + cents);
    const cat = categories.get(c.costCategoryId) ?? {
      name: (lang === 'fi' ? c.nameFi : c.name) ?? '',
      usageType: c.usageType,
      cents: 0,
    };
    cat.cents += cents;
    categories.set(c.costCategoryId, cat);
    usage.voice += num(c.voice);
    usage.sms += num(c.sms);
    usage.data += num(c.data);
    if (c.zone && c.zone !== 'domestic') {
      usage.rVoice += num(c.voice);
      usage.rSms += num(c.sms);
      usage.rData += num(c.data);
      usage.rCents += cents;
    }
  }
  const round2 = (n: number) => Math.round(n * 100) / 100;
  const byCost = <T extends { cents: number }>(a: T, b: T) => b.cents - a.cents;
  const named = (rows: Array<{ id: number | null; name: string | null; cents: number }>) =>
    rows
      .map((r) => ({ id: r.id, name: r.name ?? '', cents: r.cents }))
      .sort((a, b) => byCost(a, b) || (a.id ?? 0) - (b.id ?? 0));

  const usageTotals: UsageTotals = {
    voiceMinutes: round2(usage.voice),
    sms: round2(usage.sms),
    dataMb: round2(usage.data),
    roamingVoiceMinutes: round2(usage.rVoice),
    roamingSms: round2(usage.rSms),
    roamingDataMb: round2(usage.rData),
    roamingCost: euros(usage.rCents),
  };
  return {
    clientId,
    from,
    to,
    previousFrom,
    previousTo,
    totalCost: euros(totalCents),
    previousTotalCost: euros(previousCents),
    comparison: comparePeriods(invoiced, [...months.keys()], span),
    usage: usageTotals,
    months: [...months].map(([m, v]): CostUsageMonth => ({
      month: m,
      cost: euros(v.cents),
      voiceMinutes: round2(v.voice),
      sms: round2(v.sms),
      dataMb: round2(v.data),
      byCategory: [...v.cats]
        .filter(([, c]) => c !== 0)
        .map(([costCategoryId, c]) => ({ costCategoryId, cost: euros(c) })),
    })),
    byCategory: [...categories]
      .map(([costCategoryId, c]) => ({ costCategoryId, ...c }))
      .sort((a, b) => byCost(a, b) || (a.costCategoryId ?? 0) - (b.costCategoryId ?? 0))
      .map(({ costCategoryId, name, usageType, cents }) => ({
        costCategoryId,
        name,
        usageType,
        cost: euros(cents),
      })),
    byCostCenter: named(centers).map((r) => ({ costCenterId: r.id, name: r.name, cost: euros(r.cents) })),
    bySubCompany: named(subs).map((r) => ({ subCompanyId: r.id, name: r.name, cost: euros(r.cents) })),
    byUser: {
      items: users.items.map(({ subCompanyId: _s, costCenterId: _c, ...u }) => u),
      total: users.total,
    },
  };
}

/**
 * The like-with-like change (the rule is in `costUsageComparisonSchema`): each month of the
 * period with facts against the month `span` months earlier; null unless every one has a partner
 * with facts.
 */
export function comparePeriods(
  invoiced: ReadonlyMap<string, number>,
  periodMonths: readonly string[],
  span: number,
): CostUsage['comparison'] {
  let cents = 0;
  let previous = 0;
  let count = 0;
  for (const m of periodMonths) {
    const c = invoiced.get(m);
    if (c === undefined) continue;
    const p = invoiced.get(addMonths(m, -span));
    if (p === undefined) return null;
    cents += c;
    previous += p;
    count++;
  }
  return count ? { months: count, cost: euros(cents), previousCost: euros(previous) } : null;
}
