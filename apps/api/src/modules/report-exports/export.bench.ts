/**
 * A 100,000-row scheduled export (issue 12: time and peak RSS, goal under 300 MB): "All costs and
 * usage" of 5,000 subscriptions × 20 months, built by the report archive's job code with the
 * streaming workbook writer into parts in PostgreSQL, then downloaded. Run against a scratch server,
 * which gets a fresh database:
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx apps/api/src/modules/report-exports/export.bench.ts
 *
 * (`npm run bench -- export` does this with that URL by default.) RSS is this process's: the API
 * and its job worker; the database server is apart. BENCH_SUBSCRIPTIONS and BENCH_MONTHS change the
 * size. Without a reachable PostgreSQL it says so and skips.
 */
import { eq } from 'drizzle-orm';
import { reportExports } from '../../db/schema/index.js';
import { createTestApp, DEMO } from '../../test/helpers.js';
import { benchClient, requirePostgres, seedBenchFacts } from '../../test/bench-data.js';
import { buildExport } from './report-exports.service.js';

const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 5_000);
const MONTHS = Number(process.env.BENCH_MONTHS ?? 20);
/** The goal of issue 12 for the peak RSS of a 100,000-row export. */
const GOAL_MB = 300;

await requirePostgres('export');

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const t = await createTestApp();
try {
  const { db } = t.deps.database;
  const { userId, clientId } = await benchClient(db);
  const started = Date.now();
  const facts = await seedBenchFacts(db, clientId, SUBS, MONTHS);
  console.log(
    `${facts} facts (${SUBS} subscriptions × ${MONTHS} months) written in ${Date.now() - started} ms`,
  );

  const from = `${2030 - Math.ceil(MONTHS / 12)}-${String(((12 - (MONTHS % 12)) % 12) + 1).padStart(2, '0')}`;
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);

  const [row] = await db
    .insert(reportExports)
    .values({
      userId,
      clientId,
      kind: 'costs-usage',
      fromMonth: from,
      toMonth: '2029-12',
      lang: 'en',
    })
    .returning();
  const s = performance.now();
  await buildExport(t.deps, row!.id);
  const built = performance.now() - s;
  const [done] = await db.select().from(reportExports).where(eq(reportExports.id, row!.id));
  if (done?.status !== 'ready') throw new Error(`export ${done?.status}: ${JSON.stringify(done?.params)}`);

  const token = await t.login(DEMO.companyAdmin);
  const d = performance.now();
  const res = await t.inject({ method: 'GET', url: `/api/report-exports/${row!.id}/file`, token });
  const downloaded = performance.now() - d;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  if (res.statusCode !== 200 || res.rawPayload.length !== done.sizeBytes)
    throw new Error(`download: ${res.statusCode}, ${res.rawPayload.length} of ${done.sizeBytes} bytes`);

  console.log(
    `export of ${done.rowCount} rows (${from} – 2029-12): built in ${(built / 1000).toFixed(1)} s (${Math.round(
      done.rowCount! / (built / 1000),
    )} rows/s), ${mb(done.sizeBytes!)} MB file, downloaded in ${downloaded.toFixed(0)} ms`,
  );
  console.log(
    `peak RSS ${mb(peak)} MB (${mb(before)} MB before the export); goal under ${GOAL_MB} MB: ${
      peak < GOAL_MB * 1024 * 1024 ? 'met' : 'NOT met'
    }`,
  );
} finally {
  await t.close();
}
