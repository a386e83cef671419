import { and, desc, eq, gte, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  bestPlan,
  planFromMaster,
  unused,
  type Plan,
  type RoamingRegion,
  type Subscription,
  type UsageMonth,
} from '@kulu/optimizer';
import {
  clients,
  invoiceLines,
  invoices,
  monthlyFacts,
  optimizationResults,
  optimizationRuns,
  plans,
  subscriptions,
  type OPTIMIZATION_RUN_STATUSES,
  type OPTIMIZATION_TRIGGERS,
} from '../../db/schema/index.js';
import type { Database, Executor, Tx } from '../../db/client.js';
import { QUEUE, resendLost } from '../../lib/queue.js';
import type { Deps } from '../../types.js';
import { optimizeOffLoop } from '../../lib/follow-up.js';

/**
 * The optimize-client job's work (docs/decisions/0006-optimization.md): one client at a time, its
 * results swapped in one transaction, its open marks realised from the invoices.
 */

export type OptimizationTrigger = (typeof OPTIMIZATION_TRIGGERS)[number];

export interface OptimizeClientJob {
  clientId: number;
}

/** The singleton key of a client's job: pg-boss keeps one waiting and one running per key. */
export const optimizeJobKey = (clientId: number) => `optimize:${clientId}`;

/** Tests make a run fail between computing and swapping (the swap must then leave nothing behind). */
export const optimizeTestHooks: { beforeSwap?: (clientId: number) => Promise<void> | void } = {};

/**
 * Records a queued run of a client inside the caller's transaction (the outbox): the job is sent
 * after commit by `dispatchQueuedRuns` (or at once by `requestOptimization`), so a write that rolls
 * back queues nothing and one that commits is never forgotten.
 */
export async function queueOptimization(
  tx: Executor,
  clientId: number,
  trigger: OptimizationTrigger,
  requestedBy: number | null = null,
): Promise<number> {
  const [run] = await tx
    .insert(optimizationRuns)
    .values({ clientId, trigger, requestedBy })
    .returning({ id: optimizationRuns.id });
  return run.id;
}

/**
 * Takes the transaction-scoped lock a client's optimization run holds: another write that removes
 * the client's subscriptions (deleting an invoice) takes it first, so the two never deadlock.
 */
export async function lockClientOptimization(tx: Tx, clientId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(20260610, ${clientId})`);
}

/** Queues runs for every client using plans of this operator (a general plan changed). */
export async function queueOptimizationForPlan(
  tx: Tx,
  plan: { operatorId: number; clientId: number | null },
): Promise<void> {
  const ids =
    plan.clientId != null
      ? [plan.clientId]
      : (
          await tx
            .selectDistinct({ id: subscriptions.clientId })
            .from(subscriptions)
            .where(eq(subscriptions.operatorId, plan.operatorId))
        ).map((r) => r.id);
  for (const id of ids) await queueOptimization(tx, id, 'plans');
}

/** Sends the job of a client (deduplicated by pg-boss: null when one is already waiting). */
async function sendOptimizeJob(deps: Deps, clientId: number): Promise<string | null> {
  return deps.jobs.send(QUEUE.optimizeClient, { clientId } satisfies OptimizeClientJob, {
    singletonKey: optimizeJobKey(clientId),
    retryLimit: 0,
    expireInSeconds: 30 * 60,
  });
}

/** A run queued and its job sent now (Re-optimize, settings, after an import). */
export async function requestOptimization(
  deps: Deps,
  clientId: number,
  trigger: OptimizationTrigger,
  requestedBy: number | null = null,
): Promise<{ runId: number; jobId: string | null }> {
  const { db } = deps.database;
  const runId = await queueOptimization(db, clientId, trigger, requestedBy);
  const jobId = await sendOptimizeJob(deps, clientId);
  if (jobId) await db.update(optimizationRuns).set({ jobId }).where(eq(optimizationRuns.id, runId));
  return { runId, jobId };
}

/**
 * Sends a job for every client with queued runs and no job waiting or running: the runs queued
 * inside other transactions (plan master changes), or whose send failed. Called by a sweep of
 * every instance and after plan writes.
 */
export async function dispatchQueuedRuns(deps: Deps): Promise<number> {
  await deps.jobs.start();
  const match = sql`j.singleton_key = 'optimize:' || ${optimizationRuns.clientId}`;
  const lost = { id: optimizationRuns.clientId, waiting: eq(optimizationRuns.status, 'queued'), match };
  return resendLost(deps.database.db, QUEUE.optimizeClient, lost, (clientId) =>
    sendOptimizeJob(deps, clientId),
  );
}

const REGION: Record<string, RoamingRegion | undefined> = {
  nordic_baltic: 'nordicBaltic',
  eu: 'eu',
  world: 'other',
};

const emptyMonth = (): UsageMonth => ({
  voiceMinutes: 0,
  sms: 0,
  dataMb: 0,
  roamingDataMb: {},
  roamingMinutes: {},
});

/** Adds one invoice line's quantity (voice minutes, SMS pieces, data MB) to its month. */
function addUsage(m: UsageMonth, category: string, region: string | null, quantity: number) {
  const roaming = region ? REGION[region] : undefined;
  if (category === 'voice') {
    if (roaming) m.roamingMinutes![roaming] = (m.roamingMinutes![roaming] ?? 0) + quantity;
    else m.voiceMinutes += quantity;
  } else if (category === 'sms') {
    m.sms += quantity;
  } else if (category === 'data') {
    if (roaming) m.roamingDataMb![roaming] = (m.roamingDataMb![roaming] ?? 0) + quantity;
    else m.dataMb += quantity;
  }
}

/**
 * The plans a client may choose from: the general plans of its operators and its own
 * customer-specific rows, a customer-specific row replacing the general one of the same name.
 * Returns the plans and the general ids replaced (→ the client's row).
 */
async function clientPlans(tx: Tx, clientId: number, operatorIds: number[]) {
  if (!operatorIds.length) return { plans: [] as Plan[], replaced: new Map<number, number>() };
  const rows = await tx
    .select()
    .from(plans)
    .where(
      and(inArray(plans.operatorId, operatorIds), or(isNull(plans.clientId), eq(plans.clientId, clientId))),
    );
  const own = new Map(
    rows.filter((r) => r.clientId === clientId).map((r) => [`${r.operatorId}:${r.name.toLowerCase()}`, r.id]),
  );
  const replaced = new Map<number, number>();
  const list: Plan[] = [];
  for (const r of rows) {
    const mine = r.clientId == null ? own.get(`${r.operatorId}:${r.name.toLowerCase()}`) : undefined;
    if (mine !== undefined) {
      replaced.set(r.id, mine);
      continue;
    }
    list.push(planFromMaster(r));
  }
  return { plans: list, replaced };
}

/**
 * Open marks whose change shows on the invoices become realised: a plan change when the
 * subscription's current plan (set by its newest invoice) is the recommended one, from that
 * invoice's month; a termination (unused) when the newest invoice of its operator no longer shows
 * the subscription, from that invoice's month.
 */
export async function realiseMarks(tx: Tx, clientId: number, now: Date): Promise<number> {
  const changed = await tx.execute<{ id: number }>(sql`
    update optimization_marks m set status = 'realised', realised_month = s.last_seen_month,
      realised_at = ${now.toISOString()}
    from subscriptions s
    where m.client_id = ${clientId} and m.status = 'open' and not m.cancelled and m.kind = 'optimized'
      and s.id = m.subscription_id and s.current_plan_id = m.to_plan_id
    returning m.id`);
  const closed = await tx.execute<{ id: number }>(sql`
    update optimization_marks m set status = 'realised', realised_month = l.latest,
      realised_at = ${now.toISOString()}
    from subscriptions s,
      (select operator_id, max(period_start) latest from invoices
        where client_id = ${clientId} and upload_state = 'uploaded' group by operator_id) l
    where m.client_id = ${clientId} and m.status = 'open' and not m.cancelled and m.kind = 'unused'
      and s.id = m.subscription_id and l.operator_id = s.operator_id and l.latest > s.last_seen_month
    returning m.id`);
  return rowsOf(changed).length + rowsOf(closed).length;
}

/** node-postgres answers `{ rows }`, PGlite too; both through drizzle's execute. */
const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[])) as T[];

/**
 * The client's subscriptions' months of use since `monthsBack` months before `oldest`: a month billed
 * without use counts as a month of no use (its facts), the use from the invoice lines.
 */
async function usageMonths(tx: Tx, clientId: number, oldest: string, monthsBack: number) {
  const months = new Map<number, Map<string, UsageMonth>>();
  const since = sql`(${oldest}::date - make_interval(months => ${monthsBack}))`;
  const billed = await tx
    .selectDistinct({ sub: monthlyFacts.subscriptionId, month: sql<string>`${monthlyFacts.month}::text` })
    .from(monthlyFacts)
    .where(
      and(
        eq(monthlyFacts.clientId, clientId),
        isNotNull(monthlyFacts.subscriptionId),
        gte(monthlyFacts.month, since),
      ),
    );
  for (const b of billed) {
    const m = months.get(b.sub!) ?? new Map<string, UsageMonth>();
    m.set(b.month, emptyMonth());
    months.set(b.sub!, m);
  }
  const usage = await tx
    .select({
      sub: invoiceLines.subscriptionId,
      month: sql<string>`${invoices.periodStart}::text`,
      category: invoiceLines.category,
      region: invoiceLines.region,
      quantity: sql<string>`sum(${invoiceLines.quantity})::text`,
    })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(
      and(
        eq(invoiceLines.clientId, clientId),
        eq(invoices.uploadState, 'uploaded'),
        isNotNull(invoiceLines.subscriptionId),
        isNotNull(invoiceLines.quantity),
        inArray(invoiceLines.category, ['voice', 'sms', 'data']),
        gte(invoices.periodStart, since),
      ),
    )
    .groupBy(invoiceLines.subscriptionId, invoices.periodStart, invoiceLines.category, invoiceLines.region);
  for (const u of usage) {
    const m = months.get(u.sub!)?.get(u.month);
    if (m) addUsage(m, u.category, u.region, Number(u.quantity));
  }
  return months;
}

export interface OptimizeOutcome {
  subscriptions: number;
  findings: number;
}

/**
 * Recomputes one client's results in one transaction: realises marks, reads the subscriptions with
 * a known plan that its newest invoice of their operator still shows, their last N months of use
 * (invoice lines: voice minutes, SMS, data MB by roaming region; a month billed without use counts
 * as a month of no use), the plans it may choose from, and replaces its results. A transaction-
 * scoped advisory lock keeps two runs of one client from overlapping even outside the queue.
 */
export async function optimizeClient(
  deps: Pick<Deps, 'now'> & { database: Pick<Database, 'db'> },
  clientId: number,
  runIds: number[],
): Promise<OptimizeOutcome> {
  const { db } = deps.database;
  const now = deps.now();
  return db.transaction(async (tx) => {
    await lockClientOptimization(tx, clientId);
    const [client] = await tx
      .select({ months: clients.optimizationMonths, unusedMonthCount: clients.unusedMonthCount })
      .from(clients)
      .where(eq(clients.id, clientId));
    if (!client) return { subscriptions: 0, findings: 0 };
    await realiseMarks(tx, clientId, now);

    const latest = await tx
      .select({ operatorId: invoices.operatorId, month: sql<string>`max(${invoices.periodStart})::text` })
      .from(invoices)
      .where(
        and(
          eq(invoices.clientId, clientId),
          eq(invoices.uploadState, 'uploaded'),
          isNotNull(invoices.operatorId),
        ),
      )
      .groupBy(invoices.operatorId);
    const latestOf = new Map(latest.map((l) => [l.operatorId!, l.month]));
    const subs = (
      await tx
        .select({
          id: subscriptions.id,
          operatorId: subscriptions.operatorId,
          planId: subscriptions.currentPlanId,
          lastSeen: sql<string>`${subscriptions.lastSeenMonth}::text`,
        })
        .from(subscriptions)
        .where(and(eq(subscriptions.clientId, clientId), isNotNull(subscriptions.currentPlanId)))
    ).filter((s) => latestOf.get(s.operatorId) === s.lastSeen);

    const oldest = [...latestOf.values()].sort()[0];
    const months =
      subs.length && oldest
        ? await usageMonths(tx, clientId, oldest, client.months)
        : new Map<number, Map<string, UsageMonth>>();

    const { plans: choices, replaced } = await clientPlans(tx, clientId, [
      ...new Set(subs.map((s) => s.operatorId)),
    ]);
    const rows: Array<typeof optimizationResults.$inferInsert> = [];
    const runId = Math.max(...runIds);
    for (const s of subs) {
      const byMonth = months.get(s.id);
      if (!byMonth?.size) continue;
      const sub: Subscription = {
        id: s.id,
        currentPlanId: replaced.get(s.planId!) ?? s.planId!,
        months: [...byMonth.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .slice(-client.months)
          .map(([, m]) => m),
      };
      const best = bestPlan(sub, choices, { months: client.months });
      if (!best) continue;
      const idle = unused(sub, client.unusedMonthCount, choices);
      const base = {
        clientId,
        runId,
        subscriptionId: s.id,
        operatorId: s.operatorId,
        currentPlanId: best.currentPlanId,
        currentMonthlyCents: best.currentMonthlyCents,
        monthsUsed: sub.months.length,
      };
      rows.push(
        idle
          ? {
              ...base,
              kind: 'unused',
              bestPlanId: null,
              bestMonthlyCents: best.currentMonthlyCents - idle.monthlySavingCents,
              monthlySavingCents: idle.monthlySavingCents,
              reasonCode: idle.reason.code,
              reasonParams: idle.reason.params,
            }
          : {
              ...base,
              kind: best.monthlySavingCents > 0 ? 'optimized' : 'unoptimized',
              bestPlanId: best.bestPlanId,
              bestMonthlyCents: best.bestMonthlyCents,
              monthlySavingCents: best.monthlySavingCents,
              reasonCode: best.reason.code,
              reasonParams: best.reason.params,
            },
      );
    }

    await optimizeTestHooks.beforeSwap?.(clientId);
    await tx.delete(optimizationResults).where(eq(optimizationResults.clientId, clientId));
    for (let i = 0; i < rows.length; i += 1000) {
      await tx.insert(optimizationResults).values(rows.slice(i, i + 1000));
    }
    await tx
      .update(optimizationRuns)
      .set({
        status: 'succeeded',
        finishedAt: now,
        subscriptions: subs.length,
        findings: rows.length,
        error: null,
      })
      .where(inArray(optimizationRuns.id, runIds));
    return { subscriptions: subs.length, findings: rows.length };
  });
}

/**
 * The job: claims the client's queued runs (running), recomputes, and marks them succeeded — or
 * failed with the error, the previous results left as they were (the swap rolled back). Runs queued
 * meanwhile get the next job. No retries: a failed run is visible, and Re-optimize queues another.
 */
export async function runQueuedOptimization(deps: Deps, clientId: number): Promise<OptimizeOutcome | null> {
  const { db } = deps.database;
  const claimed = await db
    .update(optimizationRuns)
    .set({ status: 'running', startedAt: deps.now() })
    .where(and(eq(optimizationRuns.clientId, clientId), eq(optimizationRuns.status, 'queued')))
    .returning({ id: optimizationRuns.id });
  if (!claimed.length) return null;
  const ids = claimed.map((c) => c.id);
  try {
    // On the follow-up worker thread where there is one (PostgreSQL), so that a large client's run
    // never holds the API's event loop (lib/follow-up.ts); a test's hook runs here.
    const offLoop = optimizeTestHooks.beforeSwap
      ? null
      : optimizeOffLoop<OptimizeOutcome>(deps, clientId, ids);
    return await (offLoop ?? optimizeClient(deps, clientId, ids));
  } catch (e) {
    await db
      .update(optimizationRuns)
      .set({
        status: 'failed',
        finishedAt: deps.now(),
        error: String((e as Error)?.message ?? e).slice(0, 2000),
      })
      .where(inArray(optimizationRuns.id, ids));
    return null;
  }
}

/** What a run's status line shows (the optimization page, Savings, the portfolio). */
export const runColumns = {
  id: optimizationRuns.id,
  status: optimizationRuns.status,
  trigger: optimizationRuns.trigger,
  createdAt: optimizationRuns.createdAt,
  finishedAt: optimizationRuns.finishedAt,
};

/** A run as the API answers it: timestamps in ISO form. */
export function runAnswer(run: {
  id: number;
  status: (typeof OPTIMIZATION_RUN_STATUSES)[number];
  trigger: (typeof OPTIMIZATION_TRIGGERS)[number];
  createdAt: Date | string;
  finishedAt: Date | string | null;
}) {
  return {
    id: run.id,
    status: run.status,
    trigger: run.trigger,
    createdAt: new Date(run.createdAt).toISOString(),
    finishedAt: run.finishedAt ? new Date(run.finishedAt).toISOString() : null,
  };
}

/** The latest run of a client (null: never optimized). */
export async function lastRun(db: Executor, clientId: number) {
  const [run] = await db
    .select(runColumns)
    .from(optimizationRuns)
    .where(eq(optimizationRuns.clientId, clientId))
    .orderBy(desc(optimizationRuns.id))
    .limit(1);
  return run ? runAnswer(run) : null;
}
