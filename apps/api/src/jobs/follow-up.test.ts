// Issue 37, item 3: after a 50,000-subscription e-invoice, the follow-up work (the client's
// optimization, the invoice's alert rules) held the API's event loop for 13–54 s. It now runs on a
// worker thread with its own database connections (PostgreSQL; PGlite lives in the API's thread), and
// the alert evaluations queue fairly between clients, like the parses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { invoices, optimizationRuns } from '../db/schema/index.js';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { evaluateAlertsHandler, requestAlertEvaluation } from '../modules/alerts/alerts.jobs.js';
import { requestOptimization, runQueuedOptimization } from '../modules/optimization/optimize.service.js';
import { QUEUE } from '../lib/queue.js';
import { followUpCounts } from '../lib/follow-up.js';

let t: TestApp;
/** The demo clients' uploaded invoices, oldest first. */
let byClient: Map<number, number[]>;

beforeAll(async () => {
  // The demo invoices, no job workers: a job sent stays queued as it was sent.
  t = await createTestApp({}, { demo: true });
  const rows = await t.deps.database.db
    .select({ id: invoices.id, clientId: invoices.clientId })
    .from(invoices)
    .where(eq(invoices.uploadState, 'uploaded'))
    .orderBy(asc(invoices.id));
  byClient = new Map();
  for (const r of rows) byClient.set(r.clientId, [...(byClient.get(r.clientId) ?? []), r.id]);
}, 600_000);

afterAll(async () => {
  await t?.close(); // stops the follow-up worker of its database
});

describe('the follow-up work of an import (issue 37)', () => {
  it("runs a client's optimization and an invoice's alert rules on the worker thread on PostgreSQL, not on the API's event loop", async () => {
    const [clientId, ids] = [...byClient].find(([, list]) => list.length > 1)!;
    const before = { ...followUpCounts };
    const { runId } = await requestOptimization(t.deps, clientId, 'manual');
    const outcome = await runQueuedOptimization(t.deps, clientId);
    expect(outcome?.subscriptions).toBeGreaterThan(0);
    const [run] = await t.deps.database.db
      .select({ status: optimizationRuns.status, findings: optimizationRuns.findings })
      .from(optimizationRuns)
      .where(eq(optimizationRuns.id, runId));
    expect(run).toEqual({ status: 'succeeded', findings: outcome!.findings });
    await evaluateAlertsHandler(t.deps)({
      id: 'x',
      data: { invoiceId: ids.at(-1)! },
      retryCount: 0,
      retryLimit: 1,
    });
    const onPostgres = t.deps.database.kind === 'postgres';
    expect(followUpCounts.worker - before.worker).toBe(onPostgres ? 2 : 0);
    expect(followUpCounts.inProcess - before.inProcess).toBe(onPostgres ? 0 : 2);
  }, 120_000);

  it("queues an invoice's alert rules behind its own client's, not behind another client's", async () => {
    const [[a, aIds], [b, bIds]] = [...byClient].filter(([, list]) => list.length >= 3);
    expect(a).not.toBe(b);
    for (const id of aIds.slice(0, 3)) await requestAlertEvaluation(t.deps, id);
    await requestAlertEvaluation(t.deps, bIds[0]);
    const { rows } = (await t.deps.database.executeSql(
      `select (data->>'invoiceId')::int as "invoiceId", priority from pgboss.job
        where name = $1 and state = 'created' order by created_on`,
      [QUEUE.evaluateAlerts],
    )) as { rows: Array<{ invoiceId: number; priority: number }> };
    const priority = new Map(rows.map((r) => [r.invoiceId, r.priority]));
    // The client's first goes with any client's first, its second after every client's first.
    expect(aIds.slice(0, 3).map((id) => priority.get(id))).toEqual([0, -1, -2]);
    expect(priority.get(bIds[0])).toBe(0);
  });
});
