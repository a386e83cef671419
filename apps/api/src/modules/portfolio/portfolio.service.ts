import { and, asc, desc, eq, gte, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  addMonths,
  helsinkiDay,
  helsinkiMonth,
  type PortfolioExportQuery,
  type PortfolioList,
  type PortfolioQuery,
  type PortfolioRow,
  type PortfolioSort,
} from '@kulu/shared';
import {
  alerts,
  clientContracts,
  dashboardDataVersions,
  clientOperators,
  clients,
  invoices,
  monthlyCostSummary,
  operators,
  optimizationMarks,
  optimizationResults,
  optimizationRuns,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { euros, toCents } from '../dashboards/money.js';
import { potentialFinding, realisedBy, savingsScope } from '../optimization/optimization.service.js';
import { runAnswer, runColumns } from '../optimization/optimize.service.js';
import { alertsInScope } from '../alerts/alerts.service.js';

/**
 * The provider's portfolio (issue 26): a row per client company the caller may see (the request's
 * Scope: every client for the provider admin, a consultant's assigned companies), with each figure
 * computed for every visible client at once, one grouped statement per figure, all in parallel.
 * The figures are the ones the client's own screens show: cost from the dashboards' pre-aggregate,
 * savings by the optimization module's definitions. Decision: docs/decisions/0025-portfolio.md.
 */

interface Figures {
  costThisMonth: number;
  costLastMonth: number;
  potentialSaving: number;
  realisedSaving: number;
}

/** A row with its money in cents, before paging (sorted and totalled in cents). */
type Row = Omit<PortfolioRow, keyof Figures> & Figures;

const month1 = (m: string) => `${m}-01`;

/**
 * Month costs kept in memory per client, login operator and month under the client's dashboard data
 * version (decision 0013: the facts' triggers give a client a new version whenever its facts change).
 * A request reads the visible clients' versions (primary-key lookups) and sums
 * `monthly_cost_summary` only for clients whose facts changed since; the versions are read first,
 * so a kept total is never older than its version.
 */
const keptCosts = new Map<string, { version: number; cents: number }>();
const MAX_KEPT_COSTS = 100_000;

/** Each client's invoiced cost of each month (`clientId|YYYY-MM` → cents), as Cost and Usage sums it. */
async function monthCosts(
  db: Db,
  scope: Scope,
  clientIds: number[],
  months: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (!clientIds.length) return out;
  const versions = await db
    .select({ clientId: dashboardDataVersions.clientId, version: dashboardDataVersions.version })
    .from(dashboardDataVersions)
    .where(inArray(dashboardDataVersions.clientId, clientIds));
  const versionOf = new Map(versions.map((v) => [v.clientId, v.version]));
  const keyOf = (clientId: number, m: string) => `${clientId}|${scope.operatorId ?? 0}|${m}`;
  const stale: number[] = [];
  for (const id of clientIds) {
    const version = versionOf.get(id) ?? 0;
    const kept = months.map((m) => keptCosts.get(keyOf(id, m)));
    if (kept.every((k) => k?.version === version))
      months.forEach((m, i) => out.set(`${id}|${m}`, kept[i]!.cents));
    else stale.push(id);
  }
  if (!stale.length) return out;
  const rows = await db
    .select({
      clientId: monthlyCostSummary.clientId,
      month: sql<string>`to_char(${monthlyCostSummary.month}, 'YYYY-MM')`,
      cost: sql<string>`sum(${monthlyCostSummary.amount})::text`,
    })
    .from(monthlyCostSummary)
    .where(
      and(
        inArray(monthlyCostSummary.clientId, stale),
        inArray(monthlyCostSummary.month, months.map(month1)),
        scope.where({ clientId: monthlyCostSummary.clientId, operatorId: monthlyCostSummary.operatorId }),
      ),
    )
    .groupBy(monthlyCostSummary.clientId, monthlyCostSummary.month);
  const summed = new Map(rows.map((r) => [`${r.clientId}|${r.month}`, toCents(r.cost)]));
  for (const id of stale) {
    for (const m of months) {
      const cents = summed.get(`${id}|${m}`) ?? 0;
      out.set(`${id}|${m}`, cents);
      const key = keyOf(id, m);
      keptCosts.delete(key);
      keptCosts.set(key, { version: versionOf.get(id) ?? 0, cents });
    }
  }
  while (keptCosts.size > MAX_KEPT_COSTS) keptCosts.delete(keptCosts.keys().next().value!);
  return out;
}

/** Empties the kept month costs (the bench measures the first view with it). */
export function clearPortfolioCosts(): void {
  keptCosts.clear();
}

/** Every visible client's row for the filters, unsorted: `month` is "this month". */
async function portfolioRows(
  db: Db,
  scope: Scope,
  q: PortfolioExportQuery,
  now: Date,
): Promise<{ month: string; lastMonth: string; rows: Row[] }> {
  const month = q.month ?? helsinkiMonth(now);
  const lastMonth = addMonths(month, -1);
  const today = helsinkiDay(now);
  const monthEnd = `${addMonths(month, 1)}-01`;
  const pattern = q.q ? containsPattern(q.q) : null;
  const ofClients = (col: PgColumn): SQL | undefined => scope.where({ clientId: col });
  const r = optimizationResults;
  const s = subscriptions;
  const co = clientOperators;

  const companies = await db
    .select({ id: clients.id, name: clients.companyName, businessId: clients.businessId })
    .from(clients)
    .where(
      and(
        eq(clients.type, 'company'),
        eq(clients.interestStatus, 'company'),
        eq(clients.profileStatus, 'active'),
        ofClients(clients.id),
        pattern ? or(ilike(clients.companyName, pattern), ilike(clients.businessId, pattern)) : undefined,
      ),
    );
  const ids = companies.map((c) => c.id);
  // The month's invoiced cost, as the cost-and-usage dashboard sums it (its pre-aggregate), kept per data version.
  const [costs, potential, realised, missing, contracts, operatorEnds, runs, openAlerts] = await Promise.all([
    monthCosts(db, scope, ids, [lastMonth, month]),
    // Savings' potential (a month) and realised saving of the month: the optimization module's rules.
    db
      .select({ clientId: r.clientId, cents: sql<string>`sum(${r.monthlySavingCents})::text` })
      .from(r)
      .innerJoin(s, eq(s.id, r.subscriptionId))
      .where(and(savingsScope(scope), potentialFinding()))
      .groupBy(r.clientId),
    db
      .select({
        clientId: optimizationMarks.clientId,
        cents: sql<string>`sum(${optimizationMarks.monthlySavingCents})::text`,
      })
      .from(optimizationMarks)
      .innerJoin(s, eq(s.id, optimizationMarks.subscriptionId))
      .where(and(savingsScope(scope), realisedBy(month)))
      .groupBy(optimizationMarks.clientId),
    // Operators under contract in the month (no dates: always) without an invoice of the month in.
    db
      .select({ clientId: co.clientId, operator: operators.name })
      .from(co)
      .innerJoin(operators, eq(operators.id, co.operatorId))
      .where(
        and(
          scope.where({ clientId: co.clientId, operatorId: co.operatorId }),
          or(isNull(co.contractStartDate), sql`${co.contractStartDate} < ${monthEnd}::date`),
          or(isNull(co.contractEndDate), gte(co.contractEndDate, month1(month))),
          sql`not exists (select 1 from ${invoices} i where i.client_id = ${co.clientId}
            and i.operator_id = ${co.operatorId} and i.upload_state = 'uploaded'
            and i.period_start = ${month1(month)}::date)`,
        ),
      )
      .orderBy(asc(operators.name)),
    // The client's contract with the provider: the active one's end, else the latest end.
    db
      .select({
        clientId: clientContracts.clientId,
        endDate: sql<string>`coalesce(max(${clientContracts.endDate}) filter (where ${clientContracts.status} = 'active'),
          max(${clientContracts.endDate}) filter (where ${clientContracts.status} <> 'draft'))::text`,
      })
      .from(clientContracts)
      .where(ofClients(clientContracts.clientId))
      .groupBy(clientContracts.clientId),
    db
      .select({ clientId: co.clientId, endDate: sql<string>`min(${co.contractEndDate})::text` })
      .from(co)
      .where(
        and(
          scope.where({ clientId: co.clientId, operatorId: co.operatorId }),
          gte(co.contractEndDate, today),
        ),
      )
      .groupBy(co.clientId),
    // The latest optimization run of each client.
    db
      .selectDistinctOn([optimizationRuns.clientId], { clientId: optimizationRuns.clientId, ...runColumns })
      .from(optimizationRuns)
      .where(ofClients(optimizationRuns.clientId))
      .orderBy(asc(optimizationRuns.clientId), desc(optimizationRuns.id)),
    // Open alerts by severity, limited as the Alerts page limits them (the alerts module's scope).
    db
      .select({ clientId: alerts.clientId, severity: alerts.severity, n: sql<number>`count(*)::int` })
      .from(alerts)
      .where(and(eq(alerts.state, 'open'), alertsInScope(scope)))
      .groupBy(alerts.clientId, alerts.severity),
  ]);

  const byClient = <T extends { clientId: number }>(list: T[]) => new Map(list.map((x) => [x.clientId, x]));
  const potentialOf = byClient(potential);
  const realisedOf = byClient(realised);
  const contractOf = byClient(contracts);
  const operatorEndOf = byClient(operatorEnds);
  const runOf = byClient(runs);
  const alertsOf = new Map<number, PortfolioRow['openAlerts']>();
  for (const a of openAlerts) {
    const counts = alertsOf.get(a.clientId) ?? { high: 0, medium: 0, low: 0 };
    counts[a.severity] = a.n;
    alertsOf.set(a.clientId, counts);
  }
  const missingOf = new Map<number, string[]>();
  for (const m of missing) missingOf.set(m.clientId, [...(missingOf.get(m.clientId) ?? []), m.operator]);

  const rows: Row[] = [];
  for (const c of companies) {
    const missingOperators = missingOf.get(c.id) ?? [];
    if (q.missingInvoices && !missingOperators.length) continue;
    const costThisMonth = costs.get(`${c.id}|${month}`) ?? 0;
    const costLastMonth = costs.get(`${c.id}|${lastMonth}`) ?? 0;
    const run = runOf.get(c.id);
    rows.push({
      clientId: c.id,
      companyName: c.name,
      businessId: c.businessId,
      costThisMonth,
      costLastMonth,
      costChange: costLastMonth
        ? Math.round(((costThisMonth - costLastMonth) / costLastMonth) * 1000) / 10
        : null,
      potentialSaving: Number(potentialOf.get(c.id)?.cents ?? 0),
      realisedSaving: Number(realisedOf.get(c.id)?.cents ?? 0),
      missingInvoices: missingOperators.length,
      missingOperators,
      contractEndDate: contractOf.get(c.id)?.endDate ?? null,
      operatorContractEndDate: operatorEndOf.get(c.id)?.endDate ?? null,
      lastRun: run ? runAnswer(run) : null,
      openAlerts: alertsOf.get(c.id) ?? { high: 0, medium: 0, low: 0 },
    });
  }
  return { month, lastMonth, rows };
}

const SORTERS: Record<PortfolioSort, (r: Row) => string | number | null> = {
  companyName: (r) => r.companyName.toLocaleLowerCase('fi'),
  costThisMonth: (r) => r.costThisMonth,
  costLastMonth: (r) => r.costLastMonth,
  costChange: (r) => r.costChange,
  potentialSaving: (r) => r.potentialSaving,
  realisedSaving: (r) => r.realisedSaving,
  missingInvoices: (r) => r.missingInvoices,
  contractEndDate: (r) => r.contractEndDate,
  operatorContractEndDate: (r) => r.operatorContractEndDate,
  lastRun: (r) => r.lastRun?.createdAt ?? null,
  // High first, then medium, then low.
  openAlerts: (r) => r.openAlerts.high * 1e12 + r.openAlerts.medium * 1e6 + r.openAlerts.low,
};

/** The rows in the asked order (default: by name); empty values last either way, then by name. */
function sorted(rows: Row[], q: Pick<PortfolioExportQuery, 'sort' | 'order'>): Row[] {
  const key = SORTERS[q.sort ?? 'companyName'];
  const dir = q.order === 'desc' ? -1 : 1;
  const byName = (a: Row, b: Row) =>
    a.companyName.localeCompare(b.companyName, 'fi') || a.clientId - b.clientId;
  return rows
    .map((row) => ({ row, k: key(row) }))
    .sort((a, b) => {
      if (a.k === b.k) return byName(a.row, b.row);
      if (a.k === null) return 1;
      if (b.k === null) return -1;
      return (a.k < b.k ? -1 : 1) * dir;
    })
    .map((x) => x.row);
}

const answer = (r: Row): PortfolioRow => ({
  ...r,
  costThisMonth: euros(r.costThisMonth),
  costLastMonth: euros(r.costLastMonth),
  potentialSaving: euros(r.potentialSaving),
  realisedSaving: euros(r.realisedSaving),
});

/** One page of the portfolio, with the totals over every row of the filters. */
export async function portfolio(db: Db, scope: Scope, q: PortfolioQuery, now: Date): Promise<PortfolioList> {
  const { month, lastMonth, rows } = await portfolioRows(db, scope, q, now);
  const sum = (f: (r: Row) => number) => rows.reduce((n, r) => n + f(r), 0);
  const start = (q.page - 1) * q.pageSize;
  return {
    month,
    lastMonth,
    items: sorted(rows, q)
      .slice(start, start + q.pageSize)
      .map(answer),
    total: rows.length,
    totals: {
      costThisMonth: euros(sum((r) => r.costThisMonth)),
      costLastMonth: euros(sum((r) => r.costLastMonth)),
      potentialSaving: euros(sum((r) => r.potentialSaving)),
      realisedSaving: euros(sum((r) => r.realisedSaving)),
      missingInvoices: sum((r) => r.missingInvoices),
      openAlerts: {
        high: sum((r) => r.openAlerts.high),
        medium: sum((r) => r.openAlerts.medium),
        low: sum((r) => r.openAlerts.low),
      },
    },
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Every row of the filters in the list's order (the export). */
export async function portfolioAll(
  db: Db,
  scope: Scope,
  q: PortfolioExportQuery,
  now: Date,
): Promise<{ month: string; lastMonth: string; items: PortfolioRow[] }> {
  const { month, lastMonth, rows } = await portfolioRows(db, scope, q, now);
  return { month, lastMonth, items: sorted(rows, q).map(answer) };
}
