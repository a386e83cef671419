/**
 * Import time of a large invoice (issue 24: upload → uploaded of a 2,000-subscription invoice under
 * 5 s). The import alone, in process, on PostgreSQL: a generated Finvoice is parsed once, then
 * imported as a first month (every subscription new) and as the next month (every subscription
 * known, its user name and cost center changed), `BENCH_RUNS` pairs, each pair on numbers of its own.
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx apps/api/src/modules/invoices/import.bench.ts
 *
 * BENCH_SUBSCRIPTIONS changes the size (default 2,000). Without a reachable PostgreSQL it says so and
 * skips. The whole path from the upload request is in `npm run bench -- server` (last section).
 */
import { sql } from 'drizzle-orm';
import type { ParsedInvoice } from '@kulu/invoices';
import { subscriptions } from '../../db/schema/index.js';
import { createTestApp } from '../../test/helpers.js';
import { benchFinvoice, benchImporter, requirePostgres } from '../../test/bench-data.js';

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

await requirePostgres('import');

const t = await createTestApp();
try {
  const { db } = t.deps.database;
  const { parsed: base, target } = await benchFinvoice(db, { seed: 9301, subscriptions: SUBS });
  const { clientId } = target;
  const lines = base.subscriptions.reduce((n, s) => n + s.lines.length, 0) + base.otherLines.length;
  console.log(
    `import: ${base.subscriptions.length} subscriptions, ${lines} lines (Finvoice, elisa), PostgreSQL, ${RUNS} runs`,
  );

  const importNext = benchImporter(db, target, 'b');
  const importOne = async (parsed: ParsedInvoice) => (await importNext(parsed)).ms;

  const times: Record<'first' | 'next', number[]> = { first: [], next: [] };
  for (let r = 0; r < RUNS; r++) {
    // Numbers of this run only (the first month finds none of them), months of this run.
    const phone = (i: number) => `+3585${r}${String(i).padStart(7, '0')}`;
    const year = 2031 + r;
    const month1: ParsedInvoice = {
      ...base,
      invoiceNumber: `BENCH-${r}-1`,
      invoiceDate: `${year}-01-05`,
      subscriptions: base.subscriptions.map((s, i) => ({ ...s, phoneNumber: phone(i) })),
    };
    const month2: ParsedInvoice = {
      ...month1,
      invoiceNumber: `BENCH-${r}-2`,
      invoiceDate: `${year}-02-05`,
      subscriptions: month1.subscriptions.map((s, i) => ({
        ...s,
        userName: `${s.userName} (${r})`,
        costCenter: `BENCH-CC-${i % 7}`,
      })),
    };
    times.first.push(await importOne(month1));
    times.next.push(await importOne(month2));
    const [{ count }] = (
      (await db.execute(
        sql`select count(*)::int as count from ${subscriptions}
            where ${subscriptions.clientId} = ${clientId} and ${subscriptions.userName} like ${`% (${r})`}`,
      )) as unknown as { rows: Array<{ count: number }> }
    ).rows;
    if (count !== new Set(month2.subscriptions.map((s) => s.phoneNumber)).size) {
      throw new Error(`run ${r}: ${count} subscriptions renamed`);
    }
  }
  const fmt = (ms: number[]) => {
    const s = [...ms].sort((a, b) => a - b);
    return `median ${Math.round(s[Math.floor(s.length / 2)])} ms (min ${Math.round(s[0])}, max ${Math.round(s[s.length - 1])})`;
  };
  console.log(`  first month (all subscriptions new): ${fmt(times.first)}`);
  console.log(`  next month (all known, changed): ${fmt(times.next)}`);
} finally {
  await t.close();
}
