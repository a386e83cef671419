/**
 * `npm run bench -- probes`: issue 37's probe findings replayed against the compiled server as
 * `npm start -- --no-web` runs it (embedded PostgreSQL, demo data, default limits, a new data
 * directory on a free port), each figure printed beside its goal with PASS or FAIL:
 *   1. item 2, a hostile text: a valid Finvoice whose one row label is ~19 MB, then one whose one
 *      user name is (the file under the 20 MB upload limit), uploaded by one company's admin: each is
 *      refused `text_too_long` (packages/invoices/src/limits.ts); the server process's RSS growth
 *      (VmRSS sampled every 100 ms, its peak over the baseline before the uploads) ≤ +300 MB.
 *   2. item 3, one tenant's big invoices beside another's honest one: company A's admin uploads a
 *      month of four e-invoices (Elisa, Telia, DNA, a second Elisa account), each as large as the
 *      20 MB upload limit allows (~4,500 subscriptions, ~18,000 in all); while they are imported
 *      and their follow-up work (optimization, alerts: lib/follow-up.ts) runs, company B's admin
 *      uploads 5-page PDF invoices one after another (up to OTHER_ROUNDS, until A's optimization
 *      has ended): each B invoice "uploaded" within 10 s of its upload.
 * Throughout both, GET /api/health is asked every 200 ms: its slowest answer < 1 s (and every
 * answer a 200). Run: npm run bench -- probes (the API is built first when its sources changed).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateFinvoice } from '@kulu/invoices/generator';
import { INVOICE_MAX_BYTES } from '@kulu/shared';
import {
  ADMIN,
  api,
  COMPANY_ADMIN,
  finished,
  fivePagePdf,
  freePort,
  login,
  OTHER_ADMIN,
  processes,
  ROOT,
  rssMb,
  running,
  settle,
  sleep,
  start,
  stop,
  upload,
  type Run,
} from './bench-lib.js';

const RSS_GROWTH_GOAL_MB = 300;
const OTHER_TENANT_GOAL_S = 10;
const HEALTH_GOAL_S = 1;
/** A's e-invoices: about 4.3 KB a subscription, so each of at most ~4,700 fits the 20 MB upload limit. */
const PROBE_SUBSCRIPTIONS = Number(process.env.PROBE_SUBSCRIPTIONS ?? 4700);
/** B's invoices, one every OTHER_EVERY_MS (or as soon as the previous is in) until A's optimization has ended. */
const OTHER_ROUNDS = 14;
const OTHER_EVERY_MS = 3000;
const HUGE_TEXT_BYTES = 19 * 1024 * 1024;
const POHJOLA = { name: 'Pohjola Rakennus Oy', businessId: '2345678-0' };

let failures = 0;
function verdict(what: string, value: string, goal: string, pass: boolean) {
  if (!pass) failures++;
  console.log(`  ${pass ? 'PASS' : 'FAIL'} ${what}: ${value} (goal ${goal})`);
}

/** The server's VmRSS every 100 ms and GET /api/health every 200 ms, until stopped. */
function watch(run: Run, server: number) {
  let peak = rssMb(server);
  // The parse child (the readers run there), started and ended as parses come: looked up each time.
  let childPeak = 0;
  let ticks = 0;
  let child: number | undefined;
  let slowest = 0;
  let asked = 0;
  const refused: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const rss = setInterval(() => {
    peak = Math.max(peak, rssMb(server));
    if (ticks++ % 5 === 0) child = processes(run).child;
    if (child) childPeak = Math.max(childPeak, rssMb(child));
  }, 100);
  const health = setInterval(() => {
    const t0 = performance.now();
    asked++;
    const p: Promise<void> = fetch(`${run.base}/api/health`)
      .then(async (res) => {
        await res.arrayBuffer();
        if (res.status !== 200) refused.push(String(res.status));
      })
      .catch((e: Error) => void refused.push(e.message))
      .finally(() => {
        slowest = Math.max(slowest, (performance.now() - t0) / 1000);
        inFlight.delete(p);
      });
    inFlight.add(p);
  }, 200);
  return {
    async stop() {
      clearInterval(rss);
      clearInterval(health);
      await Promise.all(inFlight);
      return { peak, childPeak, slowest, asked, refused };
    },
  };
}

function healthVerdict(h: { slowest: number; asked: number; refused: string[] }) {
  verdict(
    `health, slowest of ${h.asked} answers every 200 ms`,
    `${h.slowest.toFixed(2)} s${h.refused.length ? `, ${h.refused.length} not 200 (${h.refused[0]})` : ''}`,
    `< ${HEALTH_GOAL_S} s, all 200`,
    h.slowest < HEALTH_GOAL_S && h.refused.length === 0,
  );
}

/**
 * A valid Finvoice of a few subscriptions whose first subscription row has one text inflated to
 * ~19 MB: its label (ArticleName) or its user name (RowFreeText: "<number> <name>", Elisa's style).
 */
async function hostileFinvoice(field: 'label' | 'userName'): Promise<Uint8Array> {
  const { xml } = await generateFinvoice({
    operator: 'elisa',
    seed: 3701,
    subscriptions: 20,
    buyer: POHJOLA,
  });
  const text = Buffer.from(xml).toString('utf8');
  const bytes = Math.min(HUGE_TEXT_BYTES, INVOICE_MAX_BYTES - xml.length - 1024);
  const huge = 'Puhelut ulkomaille '.repeat(Math.ceil(bytes / 19)).slice(0, bytes);
  const row = /<InvoiceRow>(?:(?!<\/InvoiceRow>)[\s\S])*?<RowFreeText>[\s\S]*?<\/InvoiceRow>/.exec(text);
  if (!row) throw new Error('no subscription row in the generated Finvoice');
  const inflated =
    field === 'label'
      ? row[0].replace(/<ArticleName>[^<]*<\/ArticleName>/, `<ArticleName>${huge}</ArticleName>`)
      : row[0].replace(/<RowFreeText>(\S+) [^<]*<\/RowFreeText>/, `<RowFreeText>$1 ${huge}</RowFreeText>`);
  const out = Buffer.from(text.slice(0, row.index) + inflated + text.slice(row.index + row[0].length));
  if (out.length > INVOICE_MAX_BYTES) throw new Error('the hostile Finvoice is over the upload limit');
  return new Uint8Array(out);
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function hostileTexts(run: Run, server: number) {
  console.log('item 2: a Finvoice with one ~19 MB text, uploaded by a company admin');
  const token = await login(run, COMPANY_ADMIN);
  const files = { label: await hostileFinvoice('label'), userName: await hostileFinvoice('userName') };
  await sleep(2000);
  const baseline = rssMb(server);
  const w = watch(run, server);
  for (const [field, data] of Object.entries(files)) {
    const t0 = performance.now();
    const [id] = await upload(run, token, [{ name: `long-${field}.xml`, data, type: 'application/xml' }]);
    const invoice = await finished(run, token, id);
    const seconds = (performance.now() - t0) / 1000;
    verdict(
      `one ${mb(data.length)} file with a ~19 MB ${field === 'label' ? 'row label' : 'user name'}`,
      `${invoice.uploadState} ${invoice.errorCode ?? ''} after ${seconds.toFixed(1)} s`,
      "failed invoiceTextTooLong (the reader's text_too_long)",
      invoice.uploadState === 'failed' && invoice.errorCode === 'invoiceTextTooLong',
    );
  }
  // A moment for anything the refusals left behind to show in the RSS.
  await sleep(2000);
  const h = await w.stop();
  verdict(
    'server RSS growth',
    `+${h.peak - baseline} MB (${baseline} MB before, peak ${h.peak} MB)`,
    `≤ +${RSS_GROWTH_GOAL_MB} MB`,
    h.peak - baseline <= RSS_GROWTH_GOAL_MB,
  );
  console.log(`  the parse child (where the reader runs, a process of its own): peak RSS ${h.childPeak} MB`);
  healthVerdict(h);
}

/** The latest optimization run of the caller's client (GET /api/optimization/subscriptions). */
async function latestRun(run: Run, token: string) {
  const list = await api(run, 'GET', '/api/optimization/subscriptions?pageSize=1', { token });
  return list.lastRun as { status: string; createdAt: string; finishedAt: string | null } | null;
}

/**
 * The operator's Finvoice of this month (the demo's latest: what the optimizer sizes and the alert
 * rules compare) with as many subscriptions as fit the upload limit.
 */
async function largestFinvoice(operator: string, seed: number) {
  for (let subscriptions = PROBE_SUBSCRIPTIONS; ; subscriptions = Math.floor(subscriptions * 0.97)) {
    const { xml } = await generateFinvoice({
      operator,
      seed,
      subscriptions,
      invoiceDate: new Date().toISOString().slice(0, 10),
      buyer: POHJOLA,
    });
    if (xml.length <= INVOICE_MAX_BYTES) return { name: `${operator}-${seed}.xml`, data: xml, subscriptions };
  }
}

async function otherTenant(run: Run, server: number) {
  // Four e-invoices of one month from the company's two operators (two accounts each), one request.
  const files = [];
  for (const [i, operator] of ['elisa', 'telia', 'elisa', 'telia'].entries())
    files.push({ ...(await largestFinvoice(operator, 3702 + i)), type: 'application/xml' });
  const subscriptions = files.reduce((n, f) => n + f.subscriptions, 0);
  console.log(
    `item 3: company A's month of ${files.length} e-invoices (${subscriptions.toLocaleString('en')} subscriptions, ` +
      `${mb(files.reduce((n, f) => n + f.data.length, 0))}) imported and followed up; ` +
      "company B's 5-page PDF invoices one after another meanwhile",
  );
  const a = await login(run, COMPANY_ADMIN);
  const b = await login(run, OTHER_ADMIN);
  const pdfs = [];
  for (let i = 0; i < OTHER_ROUNDS; i++) pdfs.push(await fivePagePdf(3710 + i));
  const w = watch(run, server);
  const began = Date.now();
  const t0 = performance.now();
  const since = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
  const ids = await upload(run, a, files);
  // Where A's work is: its invoices being imported, then its optimization (the latest run ends
  // after the last import: whatever an import asked for is done), polled every 250 ms.
  const a0 = {
    imported: 0,
    lastParsed: 0,
    followedUp: 0,
    run: null as Awaited<ReturnType<typeof latestRun>>,
  };
  const tracking = (async () => {
    while (!a0.followedUp && performance.now() - t0 < 240_000) {
      const invoices = await Promise.all(
        ids.map((id) => api(run, 'GET', `/api/invoices/${id}`, { token: a })),
      );
      const done = invoices.filter((i) => i.uploadState !== 'in_progress');
      a0.imported = done.length;
      if (done.length === ids.length) {
        a0.lastParsed = Math.max(...done.map((i) => Date.parse(i.parsedAt as string) || began));
        a0.run = await latestRun(run, a);
        const r = a0.run;
        if (r?.finishedAt && Date.parse(r.finishedAt) >= a0.lastParsed)
          a0.followedUp = Date.parse(r.finishedAt);
      }
      await sleep(250);
    }
    return (await Promise.all(ids.map((id) => api(run, 'GET', `/api/invoices/${id}`, { token: a })))).map(
      (i) => `${i.uploadState}${i.errorCode ? ` ${i.errorCode}` : ''}`,
    );
  })();
  const phase = () =>
    a0.imported < ids.length
      ? `during A's import (${a0.imported} of ${ids.length} in)`
      : a0.followedUp
        ? "after A's optimization"
        : "during A's follow-up work";
  await sleep(2000);
  let t = 0;
  for (let round = 0; round < OTHER_ROUNDS && !a0.followedUp; round++) {
    if (round) await sleep(OTHER_EVERY_MS - (performance.now() - t));
    const when = `at ${since()}, ${phase()}`;
    t = performance.now();
    const [id] = await upload(run, b, [{ name: `b-${round}.pdf`, data: pdfs[round] }]);
    const invoice = await finished(run, b, id);
    const seconds = (performance.now() - t) / 1000;
    verdict(
      `B's 5-page invoice ${round + 1} (${(pdfs[round].length / 1024).toFixed(1)} KB) ${when}`,
      `${invoice.uploadState}${invoice.errorCode ? ` ${invoice.errorCode}` : ''} after ${seconds.toFixed(1)} s`,
      `uploaded within ${OTHER_TENANT_GOAL_S} s`,
      invoice.uploadState === 'uploaded' && seconds <= OTHER_TENANT_GOAL_S,
    );
  }
  const states = await tracking;
  const at = (epoch: number) => `${((epoch - began) / 1000).toFixed(1)} s`;
  console.log(
    `  A's e-invoices: ${[...new Set(states)].join(', ')}, the last at ${at(a0.lastParsed)}; ` +
      (a0.followedUp && a0.run
        ? `its optimization run queued at ${at(Date.parse(a0.run.createdAt))} ${a0.run.status} at ${at(a0.followedUp)}`
        : 'its optimization had not ended within 4 minutes'),
  );
  // Where each of A's invoices spent its time (the server's debug phase lines, lib/phases.ts).
  for (const p of run.phases.filter(
    (x) => x.msg === 'parse-invoice phases' && ids.includes(x.invoiceId as number),
  ))
    console.log(
      `    A's invoice ${ids.indexOf(p.invoiceId as number) + 1}: parse job ${((p.totalMs as number) / 1000).toFixed(1)} s, ended at ${at(p.time)} (` +
        Object.entries(p.phases)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
          .join(', ') +
        ')',
    );
  healthVerdict(await w.stop());
}

async function main() {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), 'api'], {
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the build failed:\n${built.stdout}\n${built.stderr}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-probes-'));
  try {
    console.log(
      `probes: compiled (npm start -- --no-web), embedded PostgreSQL, demo data; Node ${process.version}, ` +
        `${os.cpus().length} CPUs, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    // Debug logs carry the parse jobs' phase lines (where A's invoices spent their time).
    const run = await start(await freePort(), dataDir, { LOG_LEVEL: 'debug' }, ['--no-web']);
    const t0 = performance.now();
    await settle(run, await login(run, ADMIN));
    // The demo's optimization and alerts too (GET /api/health says `demo: ready`).
    while ((await api(run, 'GET', '/api/health')).demo !== 'ready') await sleep(500);
    console.log(
      `  demo invoices imported and followed up ${((performance.now() - t0) / 1000).toFixed(0)} s after the start`,
    );
    const { server } = processes(run);
    if (!server) throw new Error(`no server process:\n${run.log()}`);
    await hostileTexts(run, server);
    await otherTenant(run, server);
    await stop(run);
  } finally {
    for (const r of running) await stop(r);
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
  if (failures) throw new Error(`${failures} probe figure(s) over their goal`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
