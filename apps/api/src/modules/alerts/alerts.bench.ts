/**
 * Rule evaluation after a large import (issue 26: it adds < 1 s to importing a 2,000-subscription
 * invoice). Six months of a generated 2,000-subscription Finvoice are imported, then a seventh in
 * which 20 numbers are gone, 20 are new and 20 cost five times their usual month; the evaluation of
 * that seventh invoice is timed (`BENCH_RUNS` times, each on a fresh copy of its alerts), then once
 * more with its alerts already stored (a re-import: nothing new).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx apps/api/src/modules/alerts/alerts.bench.ts
 *
 * BENCH_SUBSCRIPTIONS changes the size (default 2,000). Without a reachable PostgreSQL it says so and skips.
 */
import { eq } from 'drizzle-orm';
import type { ParsedInvoice } from '@kulu/invoices';
import { TRIP_OUTSIDE_EU_SHARE } from '@kulu/invoices/generator';
import { alerts } from '../../db/schema/index.js';
import { createTestApp } from '../../test/helpers.js';
import { benchFinvoice, benchImporter, requirePostgres } from '../../test/bench-data.js';
import { sendAlertDigests } from './digest.service.js';
import { evaluateInvoiceAlerts } from './evaluate.service.js';

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

await requirePostgres('alerts');

const t = await createTestApp();
try {
  const { db } = t.deps.database;
  const { parsed: base, target } = await benchFinvoice(db, {
    seed: 2626,
    subscriptions: SUBS,
    tripsOutsideEu: TRIP_OUTSIDE_EU_SHARE,
  });
  const { clientId } = target;
  const phone = (i: number) => `+3585${String(i).padStart(8, '0')}`;
  const numbered = base.subscriptions.map((s, i) => ({ ...s, phoneNumber: phone(i) }));

  const importNext = benchImporter(db, target, 'a');
  const importOne = async (parsed: ParsedInvoice): Promise<number> => (await importNext(parsed)).id;

  const t0 = performance.now();
  for (let m = 1; m <= 6; m++) {
    const id = await importOne({
      ...base,
      invoiceNumber: `ALERTS-${m}`,
      invoiceDate: `2031-${String(m).padStart(2, '0')}-05`,
      subscriptions: numbered,
    });
    await evaluateInvoiceAlerts(db, id);
  }
  const jump = (s: ParsedInvoice['subscriptions'][number]) => ({
    ...s,
    lines: s.lines.map((l) => ({ ...l, amount: l.amount * 5 + 40 })),
  });
  const seventh: ParsedInvoice = {
    ...base,
    invoiceNumber: 'ALERTS-7',
    invoiceDate: '2031-07-05',
    subscriptions: [
      ...numbered.slice(20, 40).map(jump),
      ...numbered.slice(40),
      ...numbered.slice(0, 20).map((s, i) => ({ ...s, phoneNumber: phone(SUBS + i) })),
    ],
  };
  const id = await importOne(seventh);
  console.log(
    `alerts: ${SUBS} subscriptions, 6 months of history imported in ${Math.round(performance.now() - t0)} ms; PostgreSQL, ${RUNS} runs`,
  );

  const times: number[] = [];
  const digestTimes: number[] = [];
  let raised = 0;
  let mails = 0;
  for (let r = 0; r < RUNS; r++) {
    await db.delete(alerts).where(eq(alerts.invoiceId, id));
    const s = performance.now();
    raised = await evaluateInvoiceAlerts(db, id);
    times.push(performance.now() - s);
    // The immediate digests of the run (decision 0026): one mail per recipient, whatever the count.
    const d = performance.now();
    mails = await sendAlertDigests(t.deps, ['immediate'], clientId);
    digestTimes.push(performance.now() - d);
  }
  const s = performance.now();
  const again = await evaluateInvoiceAlerts(db, id);
  const reMs = performance.now() - s;
  if (again !== 0) throw new Error(`a second evaluation added ${again} alerts`);
  const rows = await db.select({ rule: alerts.rule }).from(alerts).where(eq(alerts.invoiceId, id));
  const byRule = Object.entries(
    rows.reduce<Record<string, number>>((a, r) => ({ ...a, [r.rule]: (a[r.rule] ?? 0) + 1 }), {}),
  )
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `  evaluation of the 7th month: median ${Math.round(median)} ms (min ${Math.round(sorted[0])}, max ${Math.round(sorted.at(-1)!)}), ${raised} alerts (${byRule})`,
  );
  const digestMedian = [...digestTimes].sort((a, b) => a - b)[Math.floor(digestTimes.length / 2)];
  console.log(`  immediate digests after it: median ${Math.round(digestMedian)} ms, ${mails} mail(s)`);
  console.log(`  evaluated again (re-import): ${Math.round(reMs)} ms, 0 new`);
  if (median >= 1000) {
    console.error(`  over the 1 s goal`);
    process.exitCode = 1;
  }
} finally {
  await t.close();
}
