import { and, asc, desc, eq, gte, ilike, inArray, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { renderReason, type Reason } from '@kulu/optimizer';
import {
  OPTIMIZATION_TABS,
  addMonths,
  helsinkiMonth,
  type MarkBody,
  type OptimizationExportQuery,
  type OptimizationItem,
  type OptimizationList,
  type OptimizationListQuery,
  type OptimizationSettings,
  type Savings,
  type SavingsQuery,
  type SubscriptionFinding,
} from '@kulu/shared';
import {
  clients,
  costCenters,
  optimizationMarks,
  optimizationResults,
  plans,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { ClientFilters, Scope } from '../../lib/scope.js';
import { SUBSCRIPTION_NAMES } from '../../lib/subscription-names.js';
import { lastRun } from './optimize.service.js';

type Lang = 'en' | 'fi';

/** Integer cents as a euro string ("12.90"). */
const euros = (cents: number) => (Math.round(cents) / 100).toFixed(2);
const toCents = (euro: number) => Math.round(euro * 100);

/**
 * The client of a request (provider users name it, else 400; client users get their own) and the
 * sub-company / cost-center filters checked against the Scope: anything outside it answers 404.
 */
export async function resolveClient(scope: Scope, q: ClientFilters): Promise<number> {
  const clientId = await scope.clientOfFilters(q);
  if (q.clientId == null) await scope.assertClient(clientId);
  return clientId;
}

const r = optimizationResults;
const s = subscriptions;
const currentPlan = alias(plans, 'current_plan');
const bestPlanT = alias(plans, 'best_plan');

const SORTS = {
  userName: s.userName,
  phoneNumber: s.phoneNumber,
  subCompany: subCompanies.name,
  costCenter: costCenters.name,
  currentPlan: currentPlan.name,
  bestPlan: bestPlanT.name,
  currentMonthlyCost: r.currentMonthlyCents,
  bestMonthlyCost: r.bestMonthlyCents,
  monthlySaving: r.monthlySavingCents,
} as const;

/** The conditions of a list: the client, the Scope (sub-companies, cost centers, login operator), filters. */
function conditions(
  scope: Scope,
  clientId: number,
  q: Omit<OptimizationExportQuery, 'sort' | 'order'>,
  withTab: boolean,
): SQL {
  const pattern = q.search ? containsPattern(q.search) : null;
  return and(
    scope.ofClient(
      clientId,
      {
        clientId: r.clientId,
        subCompanyId: s.subCompanyId,
        costCenterId: s.costCenterId,
        operatorId: r.operatorId,
      },
      q,
    ),
    withTab ? eq(r.kind, q.tab) : undefined,
    withTab && q.savingLimit != null ? gte(r.monthlySavingCents, toCents(q.savingLimit)) : undefined,
    withTab && pattern
      ? or(
          ilike(s.userName, pattern),
          ilike(s.phoneNumber, pattern),
          ilike(currentPlan.name, pattern),
          ilike(bestPlanT.name, pattern),
        )
      : undefined,
  )!;
}

const joined = (db: Executor) =>
  db
    .select({
      subscriptionId: r.subscriptionId,
      ...SUBSCRIPTION_NAMES,
      operatorId: r.operatorId,
      currentPlanId: r.currentPlanId,
      currentPlan: currentPlan.name,
      currentMonthlyCents: r.currentMonthlyCents,
      bestPlanId: r.bestPlanId,
      bestPlan: bestPlanT.name,
      bestMonthlyCents: r.bestMonthlyCents,
      monthlySavingCents: r.monthlySavingCents,
      reasonCode: r.reasonCode,
      reasonParams: r.reasonParams,
      kind: r.kind,
      monthsUsed: r.monthsUsed,
      createdAt: r.createdAt,
    })
    .from(r)
    .innerJoin(s, eq(s.id, r.subscriptionId))
    .leftJoin(subCompanies, eq(subCompanies.id, s.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, s.costCenterId))
    .leftJoin(currentPlan, eq(currentPlan.id, r.currentPlanId))
    .leftJoin(bestPlanT, eq(bestPlanT.id, r.bestPlanId));

type Joined = Awaited<ReturnType<ReturnType<typeof joined>['where']>>[number];

const orderOf = (q: { sort?: keyof typeof SORTS; order: 'asc' | 'desc' }) => {
  const dir = q.order === 'desc' ? desc : asc;
  return q.sort
    ? [dir(SORTS[q.sort]), asc(r.subscriptionId)]
    : [desc(r.monthlySavingCents), asc(r.subscriptionId)];
};

/** The latest mark of each subscription (cancelled ones count nowhere). */
async function marksOf(db: Executor, ids: number[]) {
  if (!ids.length) return new Map<number, OptimizationItem['mark']>();
  const rows = await db
    .select({
      subscriptionId: optimizationMarks.subscriptionId,
      status: optimizationMarks.status,
      markedAt: optimizationMarks.markedAt,
      realisedMonth: sql<string | null>`to_char(${optimizationMarks.realisedMonth}, 'YYYY-MM')`,
    })
    .from(optimizationMarks)
    .where(and(inArray(optimizationMarks.subscriptionId, ids), eq(optimizationMarks.cancelled, false)))
    .orderBy(asc(optimizationMarks.id));
  const out = new Map<number, OptimizationItem['mark']>();
  for (const m of rows) {
    out.set(m.subscriptionId, {
      status: m.status,
      markedAt: new Date(m.markedAt).toISOString(),
      realisedMonth: m.realisedMonth,
    });
  }
  return out;
}

function item(row: Joined, mark: OptimizationItem['mark'] | undefined, lang: Lang): OptimizationItem {
  return {
    subscriptionId: row.subscriptionId,
    phoneNumber: row.phoneNumber,
    userName: row.userName,
    subCompanyId: row.subCompanyId,
    subCompanyName: row.subCompanyName,
    costCenterId: row.costCenterId,
    costCenterName: row.costCenterName,
    operatorId: row.operatorId,
    currentPlanId: row.currentPlanId,
    currentPlan: row.currentPlan,
    currentMonthlyCost: euros(row.currentMonthlyCents),
    bestPlanId: row.bestPlanId,
    bestPlan: row.bestPlan,
    bestMonthlyCost: euros(row.bestMonthlyCents),
    monthlySaving: euros(row.monthlySavingCents),
    yearlySaving: euros(row.monthlySavingCents * 12),
    reason: renderReason({ code: row.reasonCode, params: row.reasonParams } as Reason, lang),
    mark: mark ?? null,
  };
}

/**
 * The subscription's finding of the latest run as the optimization list shows it, with what it
 * rests on (its tab, the months of use, when it was made); null: not optimized yet. Its mark is the
 * list's too: the last one written (highest id) that is not cancelled. The subscription detail shows
 * it (the caller's Scope was checked there).
 */
export async function subscriptionFinding(
  db: Executor,
  subscriptionId: number,
  clientId: number,
  lang: Lang,
): Promise<SubscriptionFinding | null> {
  const [row] = await joined(db).where(and(eq(r.subscriptionId, subscriptionId), eq(r.clientId, clientId)));
  if (!row) return null;
  const marks = await marksOf(db, [subscriptionId]);
  return {
    ...item(row, marks.get(subscriptionId), lang),
    kind: row.kind,
    monthsUsed: row.monthsUsed,
    optimizedAt: new Date(row.createdAt).toISOString(),
  };
}

/** One page of a tab's findings, the totals over every matching row, the counts per tab, the last run. */
export async function listOptimization(
  db: Db,
  scope: Scope,
  q: OptimizationListQuery,
  lang: Lang,
): Promise<OptimizationList> {
  const clientId = await resolveClient(scope, q);
  const where = conditions(scope, clientId, q, true);
  const base = (db: Executor) =>
    db
      .select({
        n: sql<number>`count(*)::int`,
        current: sql<string>`coalesce(sum(${r.currentMonthlyCents}), 0)::text`,
        best: sql<string>`coalesce(sum(${r.bestMonthlyCents}), 0)::text`,
        saving: sql<string>`coalesce(sum(${r.monthlySavingCents}), 0)::text`,
      })
      .from(r)
      .innerJoin(s, eq(s.id, r.subscriptionId))
      .leftJoin(currentPlan, eq(currentPlan.id, r.currentPlanId))
      .leftJoin(bestPlanT, eq(bestPlanT.id, r.bestPlanId));
  const [rows, [totals], perTab, run] = await Promise.all([
    joined(db)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    base(db).where(where),
    db
      .select({ kind: r.kind, n: sql<number>`count(*)::int` })
      .from(r)
      .innerJoin(s, eq(s.id, r.subscriptionId))
      .where(conditions(scope, clientId, q, false))
      .groupBy(r.kind),
    lastRun(db, clientId),
  ]);
  const marks = await marksOf(
    db,
    rows.map((x) => x.subscriptionId),
  );
  const counts = Object.fromEntries(OPTIMIZATION_TABS.map((t) => [t, 0])) as OptimizationList['counts'];
  for (const c of perTab) counts[c.kind] = c.n;
  return {
    items: rows.map((x) => item(x, marks.get(x.subscriptionId), lang)),
    total: totals.n,
    totals: {
      currentMonthlyCost: euros(Number(totals.current)),
      bestMonthlyCost: euros(Number(totals.best)),
      monthlySaving: euros(Number(totals.saving)),
      yearlySaving: euros(Number(totals.saving) * 12),
    },
    counts,
    lastRun: run,
  };
}

/** Every matching row of the export, in batches (the list's filters and sort, no paging). */
export async function exportRows(db: Db, scope: Scope, q: OptimizationExportQuery, lang: Lang) {
  const clientId = await resolveClient(scope, q);
  const where = conditions(scope, clientId, q, true);
  const BATCH = 2000;
  return (async function* () {
    for (let offset = 0; ; offset += BATCH) {
      const rows = await joined(db)
        .where(where)
        .orderBy(...orderOf(q))
        .limit(BATCH)
        .offset(offset);
      const marks = await marksOf(
        db,
        rows.map((x) => x.subscriptionId),
      );
      yield rows.map((x) => item(x, marks.get(x.subscriptionId), lang));
      if (rows.length < BATCH) return;
    }
  })();
}

/**
 * Marks findings for optimization in one transaction: only `optimized` and `unused` findings of the
 * client in the caller's scope; an id outside it answers 404, one without a recommendation 400.
 */
export async function markSubscriptions(
  db: Db,
  scope: Scope,
  body: MarkBody,
  userId: number,
): Promise<{ marked: number; alreadyMarked: number }> {
  return inMarkTransaction(db, scope, body, async (tx, clientId, ids) => {
    const findings = await tx
      .select()
      .from(r)
      .where(and(inArray(r.subscriptionId, ids), ne(r.kind, 'unoptimized')));
    if (findings.length !== ids.length) throw new AppError(400, 'markNotOptimizable');
    const open = new Set(
      (
        await tx
          .select({ id: optimizationMarks.subscriptionId })
          .from(optimizationMarks)
          .where(and(inArray(optimizationMarks.subscriptionId, ids), openMark))
      ).map((m) => m.id),
    );
    const fresh = findings.filter((f) => !open.has(f.subscriptionId));
    if (fresh.length) {
      await tx.insert(optimizationMarks).values(
        fresh.map((f) => ({
          clientId,
          subscriptionId: f.subscriptionId,
          kind: f.kind as 'optimized' | 'unused',
          fromPlanId: f.currentPlanId,
          toPlanId: f.kind === 'optimized' ? f.bestPlanId : null,
          monthlySavingCents: f.monthlySavingCents,
          markedBy: userId,
        })),
      );
    }
    return { marked: fresh.length, alreadyMarked: ids.length - fresh.length };
  });
}

/** A mark not yet realised nor taken back. */
const openMark = and(eq(optimizationMarks.status, 'open'), eq(optimizationMarks.cancelled, false));

/**
 * Runs `work` in one transaction on a mark body's client and distinct subscriptions, once every
 * one of them is found within the caller's Scope (else 404).
 */
async function inMarkTransaction<T>(
  db: Db,
  scope: Scope,
  body: MarkBody,
  work: (tx: Tx, clientId: number, ids: number[]) => Promise<T>,
): Promise<T> {
  const clientId = await resolveClient(scope, body);
  const ids = [...new Set(body.subscriptionIds)];
  return db.transaction(async (tx) => {
    await assertSubscriptionsInScope(tx, scope, clientId, ids);
    return work(tx, clientId, ids);
  });
}

/** Every one of `ids` is a subscription of the client within the Scope, else 404. */
async function assertSubscriptionsInScope(tx: Executor, scope: Scope, clientId: number, ids: number[]) {
  const subs = await tx
    .select({ id: s.id })
    .from(s)
    .where(
      and(
        inArray(s.id, ids),
        eq(s.clientId, clientId),
        scope.where({
          clientId: s.clientId,
          subCompanyId: s.subCompanyId,
          costCenterId: s.costCenterId,
          operatorId: s.operatorId,
        }),
      ),
    );
  if (subs.length !== ids.length) throw notFound();
}

/**
 * Takes marks back (issue 22): the open marks of the subscriptions are cancelled (kept for the
 * record, counted nowhere), so the findings are open recommendations again. Realised marks stay:
 * the change already showed on an invoice. Subscriptions without an open mark are counted apart.
 */
export async function unmarkSubscriptions(
  db: Db,
  scope: Scope,
  body: MarkBody,
): Promise<{ unmarked: number; notMarked: number }> {
  return inMarkTransaction(db, scope, body, async (tx, clientId, ids) => {
    const cancelled = await tx
      .update(optimizationMarks)
      .set({ cancelled: true })
      .where(
        and(
          inArray(optimizationMarks.subscriptionId, ids),
          eq(optimizationMarks.clientId, clientId),
          openMark,
        ),
      )
      .returning({ id: optimizationMarks.id });
    return { unmarked: cancelled.length, notMarked: ids.length - cancelled.length };
  });
}

export async function getSettings(db: Executor, clientId: number): Promise<OptimizationSettings> {
  const [c] = await db
    .select({ optimizationMonths: clients.optimizationMonths, unusedMonthCount: clients.unusedMonthCount })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!c) throw notFound();
  return c;
}

export async function putSettings(
  db: Executor,
  clientId: number,
  settings: OptimizationSettings,
): Promise<OptimizationSettings> {
  await db
    .update(clients)
    .set({ optimizationMonths: settings.optimizationMonths, unusedMonthCount: settings.unusedMonthCount })
    .where(eq(clients.id, clientId));
  return getSettings(db, clientId);
}

/**
 * The subscriptions whose savings a caller sees (Savings, the portfolio): the Scope on
 * `subscriptions` (client, sub-companies, cost centers, the operator chosen at login). A query
 * using it joins `subscriptions`.
 */
export const savingsScope = (scope: Scope): SQL | undefined =>
  scope.where({
    clientId: s.clientId,
    subCompanyId: s.subCompanyId,
    costCenterId: s.costCenterId,
    operatorId: s.operatorId,
  });

/**
 * The findings whose saving is potential (a month): the current `optimized` and `unused` findings
 * not yet realised by a mark to the same plan. The one definition of Savings and the portfolio.
 */
export function potentialFinding(): SQL {
  const realisedMark = sql<boolean>`exists (select 1 from ${optimizationMarks} m where m.subscription_id = ${r.subscriptionId}
    and m.status = 'realised' and not m.cancelled and m.to_plan_id is not distinct from ${r.bestPlanId})`;
  return and(inArray(r.kind, ['optimized', 'unused']), sql`not ${realisedMark}`)!;
}

/**
 * The marks whose saving is realised in `month` (`YYYY-MM`): realised, not cancelled, from their
 * realised month on. Each counts its monthly saving in every such month (Savings, the portfolio).
 */
export const realisedBy = (month: string): SQL =>
  and(
    eq(optimizationMarks.status, 'realised'),
    eq(optimizationMarks.cancelled, false),
    lte(optimizationMarks.realisedMonth, `${month}-01`),
  )!;

/**
 * The savings dashboard: potential savings (open recommendations not yet realised and unused
 * subscriptions, with the part already marked) and realised savings over the period — each realised
 * mark counts its monthly saving in every month from its realised month to the period's end — by
 * month and by sub-company. Limited by the Scope and the operator chosen at login.
 */
export async function savings(
  db: Db,
  scope: Scope,
  q: SavingsQuery,
  now: Date = new Date(),
): Promise<Savings> {
  const clientId = await resolveClient(scope, q);
  const to = q.to ?? (q.from ? addMonths(q.from, 11) : helsinkiMonth(now));
  const from = q.from ?? addMonths(to, -11);
  const inScope = and(
    savingsScope(scope),
    q.subCompanyId != null ? eq(s.subCompanyId, q.subCompanyId) : undefined,
  );
  const openMark = sql<boolean>`exists (select 1 from ${optimizationMarks} m where m.subscription_id = ${r.subscriptionId}
    and m.status = 'open' and not m.cancelled)`;
  const [potential, realised, run] = await Promise.all([
    db
      .select({
        kind: r.kind,
        subCompanyId: s.subCompanyId,
        name: subCompanies.name,
        marked: openMark,
        n: sql<number>`count(*)::int`,
        cents: sql<string>`sum(${r.monthlySavingCents})::text`,
      })
      .from(r)
      .innerJoin(s, eq(s.id, r.subscriptionId))
      .leftJoin(subCompanies, eq(subCompanies.id, s.subCompanyId))
      .where(and(eq(r.clientId, clientId), inScope, potentialFinding()))
      .groupBy(r.kind, s.subCompanyId, subCompanies.name, openMark),
    db
      .select({
        subCompanyId: s.subCompanyId,
        name: subCompanies.name,
        month: sql<string>`to_char(${optimizationMarks.realisedMonth}, 'YYYY-MM')`,
        cents: optimizationMarks.monthlySavingCents,
      })
      .from(optimizationMarks)
      .innerJoin(s, eq(s.id, optimizationMarks.subscriptionId))
      .leftJoin(subCompanies, eq(subCompanies.id, s.subCompanyId))
      .where(and(eq(optimizationMarks.clientId, clientId), inScope, realisedBy(to))),
    lastRun(db, clientId),
  ]);

  const months: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) months.push(m);
  const byMonth = new Map(months.map((m) => [m, 0]));
  const bySub = new Map<
    string,
    { subCompanyId: number | null; name: string; potential: number; realised: number }
  >();
  const subOf = (id: number | null, name: string | null) => {
    const key = String(id);
    let e = bySub.get(key);
    if (!e) bySub.set(key, (e = { subCompanyId: id, name: name ?? '', potential: 0, realised: 0 }));
    return e;
  };
  const p = { optimized: 0, unused: 0, optimizedCount: 0, unusedCount: 0, marked: 0, markedCount: 0 };
  for (const row of potential) {
    const cents = Number(row.cents);
    if (row.kind === 'optimized') {
      p.optimized += cents;
      p.optimizedCount += row.n;
    } else {
      p.unused += cents;
      p.unusedCount += row.n;
    }
    if (row.marked) {
      p.marked += cents;
      p.markedCount += row.n;
    }
    subOf(row.subCompanyId, row.name).potential += cents;
  }
  let realisedTotal = 0;
  let realisedCount = 0;
  for (const row of realised) {
    let counted = false;
    for (const m of months) {
      if (m < row.month) continue;
      byMonth.set(m, byMonth.get(m)! + row.cents);
      realisedTotal += row.cents;
      subOf(row.subCompanyId, row.name).realised += row.cents;
      counted = true;
    }
    if (counted) realisedCount++;
  }
  const monthly = p.optimized + p.unused;
  return {
    clientId,
    from,
    to,
    potential: {
      monthly: euros(monthly),
      yearly: euros(monthly * 12),
      optimizedMonthly: euros(p.optimized),
      unusedMonthly: euros(p.unused),
      optimizedCount: p.optimizedCount,
      unusedCount: p.unusedCount,
      markedMonthly: euros(p.marked),
      markedCount: p.markedCount,
    },
    realised: {
      total: euros(realisedTotal),
      count: realisedCount,
      byMonth: months.map((m) => ({ month: m, saving: euros(byMonth.get(m)!) })),
    },
    bySubCompany: [...bySub.values()]
      .sort((a, b) => b.potential + b.realised - (a.potential + a.realised) || a.name.localeCompare(b.name))
      .map((e) => ({
        subCompanyId: e.subCompanyId,
        name: e.name,
        potentialMonthly: euros(e.potential),
        realised: euros(e.realised),
      })),
    lastRun: run,
  };
}
