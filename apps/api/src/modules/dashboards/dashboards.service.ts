import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import {
  DASHBOARD_TOP_USERS,
  monthSpan,
  type CostUsage,
  type CostUsageMonth,
  type CostUsageQuery,
  type UsageTotals,
} from '@kulu/shared';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  costCategories,
  costCenters,
  monthlyCostSummary,
  monthlyFacts,
  subCompanies,
  subscriptionMonthCost,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';

type Lang = 'en' | 'fi';

/** `YYYY-MM` shifted by `n` months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const i = y! * 12 + (m! - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

const firstDay = (month: string) => `${month}-01`;

/** Euros as a decimal string to integer cents, and back. */
const toCents = (s: string | null | undefined) => (s == null ? 0 : Math.round(Number(s) * 100));
const euros = (cents: number) => {
  const sign = cents < 0 ? '-' : '';
  const a = Math.abs(cents);
  return `${sign}${Math.floor(a / 100)}.${String(a % 100).padStart(2, '0')}`;
};
const num = (s: string | null | undefined) => (s == null ? 0 : Number(s));

/** The pre-aggregate every figure but the top users is read from (kept by triggers on monthly_facts). */
const f = monthlyCostSummary;
const costSum = sql<string>`coalesce(sum(${f.amount}), 0)::text`;

/**
 * The cost-and-usage dashboard (issue 10): what the client paid in the period, per month, cost
 * category, cost center, sub-company and subscription, and the usage behind it, read from
 * `monthly_facts` through the request's Scope. Provider users name the client (`clientId`, else
 * 400); client users get their own, limited to their sub-companies and cost centers. A client,
 * sub-company or cost center outside the scope answers 404. Without `from`/`to` the period is the
 * 12 months up to the latest month with facts (or the current month).
 */
export async function costUsage(db: Db, scope: Scope, q: CostUsageQuery, lang: Lang): Promise<CostUsage> {
  let clientId = q.clientId ?? scope.ownClientId;
  if (q.clientId != null) await scope.assertClient(q.clientId);
  if (q.subCompanyId != null) {
    const s = await scope.assertSubCompany(q.subCompanyId);
    if (clientId != null && s.clientId !== clientId) throw new AppError(404, 'notFound');
    clientId ??= s.clientId;
  }
  if (q.costCenterId != null) {
    const c = await scope.assertCostCenter(q.costCenterId);
    if (clientId != null && c.clientId !== clientId) throw new AppError(404, 'notFound');
    clientId ??= c.clientId;
  }
  if (clientId == null) throw new AppError(400, 'validation', { clientId: 'required' });

  /** Every condition but the period, on one of the tables of facts. */
  const filters = (t: {
    clientId: PgColumn;
    subCompanyId: PgColumn;
    costCenterId: PgColumn;
    costCategoryId?: PgColumn;
    costElementId?: PgColumn;
  }): SQL =>
    and(
      eq(t.clientId, clientId),
      scope.where({ clientId: t.clientId, subCompanyId: t.subCompanyId, costCenterId: t.costCenterId }),
      q.subCompanyId != null ? eq(t.subCompanyId, q.subCompanyId) : undefined,
      q.costCenterId != null ? eq(t.costCenterId, q.costCenterId) : undefined,
      q.costCategoryId != null && t.costCategoryId ? eq(t.costCategoryId, q.costCategoryId) : undefined,
      q.costElementId != null && t.costElementId ? eq(t.costElementId, q.costElementId) : undefined,
    )!;
  const base = filters(f);

  let { from, to } = q;
  if (!to) {
    const [latest] = await db
      .select({ m: sql<string | null>`to_char(max(${f.month}), 'YYYY-MM')` })
      .from(f)
      .where(base);
    to = from ? addMonths(from, 11) : (latest?.m ?? new Date().toISOString().slice(0, 7));
  }
  from ??= addMonths(to, -11);
  const span = monthSpan(from, to);
  const previousFrom = addMonths(from, -span);
  const previousTo = addMonths(from, -1);
  const inPeriod = and(base, gte(f.month, firstDay(from)), lte(f.month, firstDay(to)));

  // Months × categories over both periods: months, categories, usage and the previous total.
  const month = sql<string>`to_char(${f.month}, 'YYYY-MM')`;
  const cells = await db
    .select({
      month,
      costCategoryId: f.costCategoryId,
      name: costCategories.name,
      nameFi: costCategories.nameFi,
      usageType: costCategories.usageType,
      zone: costCategories.zone,
      cost: costSum,
      voice: sql<string>`sum(${f.minutes})::text`,
      sms: sql<string>`coalesce(sum(${f.pieces}) filter (where ${costCategories.usageType} = 'sms'), 0)::text`,
      data: sql<string>`sum(${f.megabytes})::text`,
    })
    .from(f)
    .leftJoin(costCategories, eq(costCategories.id, f.costCategoryId))
    .where(and(base, gte(f.month, firstDay(previousFrom)), lte(f.month, firstDay(to))))
    .groupBy(
      f.month,
      f.costCategoryId,
      costCategories.name,
      costCategories.nameFi,
      costCategories.usageType,
      costCategories.zone,
    );

  const months = new Map<
    string,
    { cents: number; voice: number; sms: number; data: number; cats: Map<number | null, number> }
  >();
  for (let m = from; monthSpan(m, to) >= 1; m = addMonths(m, 1)) {
    months.set(m, { cents: 0, voice: 0, sms: 0, data: 0, cats: new Map() });
  }
  const categories = new Map<number | null, { name: string; usageType: string | null; cents: number }>();
  const usage = { voice: 0, sms: 0, data: 0, rVoice: 0, rSms: 0, rData: 0, rCents: 0 };
  let totalCents = 0;
  let previousCents = 0;
  for (const c of cells) {
    const cents = toCents(c.cost);
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

  /**
   * Top subscriptions by cost: from the per-subscription pre-aggregate, or from the facts when a
   * cost category or element is chosen (that pre-aggregate sums over them).
   */
  const topUsers = () => {
    const byElement = q.costCategoryId != null || q.costElementId != null;
    const t = byElement ? monthlyFacts : subscriptionMonthCost;
    const where = and(filters(t), gte(t.month, firstDay(from!)), lte(t.month, firstDay(to!)));
    // Ranked on the pre-aggregate alone; names are joined to the ten rows only.
    const ranked = db
      .select({
        id: sql<number>`${t.subscriptionId}`.as('ranked_subscription_id'),
        cost: sql<string>`sum(${t.amount})`.as('ranked_cost'),
        total: sql<number>`(count(*) over ())::int`.as('ranked_total'),
      })
      .from(t)
      .where(and(where, sql`${t.subscriptionId} is not null`))
      .groupBy(t.subscriptionId)
      .orderBy(desc(sql`sum(${t.amount})`), t.subscriptionId)
      .limit(DASHBOARD_TOP_USERS)
      .as('ranked');
    return db
      .select({
        subscriptionId: ranked.id,
        phoneNumber: subscriptions.phoneNumber,
        userName: subscriptions.userName,
        subCompanyName: subCompanies.name,
        costCenterName: costCenters.name,
        cost: sql<string>`${ranked.cost}::text`,
        total: ranked.total,
      })
      .from(ranked)
      .innerJoin(subscriptions, eq(subscriptions.id, ranked.id))
      .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
      .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
      .then((rows) =>
        rows.sort((a, b) => toCents(b.cost) - toCents(a.cost) || a.subscriptionId - b.subscriptionId),
      );
  };

  const [centers, subs, users] = await Promise.all([
    db
      .select({ id: f.costCenterId, name: costCenters.name, cost: costSum })
      .from(f)
      .leftJoin(costCenters, eq(costCenters.id, f.costCenterId))
      .where(inPeriod)
      .groupBy(f.costCenterId, costCenters.name),
    db
      .select({ id: f.subCompanyId, name: subCompanies.name, cost: costSum })
      .from(f)
      .leftJoin(subCompanies, eq(subCompanies.id, f.subCompanyId))
      .where(inPeriod)
      .groupBy(f.subCompanyId, subCompanies.name),
    topUsers(),
  ]);
  const named = (rows: Array<{ id: number | null; name: string | null; cost: string }>) =>
    rows
      .map((r) => ({ id: r.id, name: r.name ?? '', cents: toCents(r.cost) }))
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
      items: users.map((u) => ({
        subscriptionId: u.subscriptionId,
        phoneNumber: u.phoneNumber,
        userName: u.userName,
        subCompanyName: u.subCompanyName,
        costCenterName: u.costCenterName,
        cost: euros(toCents(u.cost)),
      })),
      total: users[0]?.total ?? 0,
    },
  };
}
