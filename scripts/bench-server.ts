/**
 * `npm run bench`, server part: the compiled server as `npm start` runs it, on the embedded
 * database (PGlite) with demo data, in a new data directory on a free port.
 *   1. first start (new database: create, migrate, demo organisation): time from `npm start` to the
 *      first /api/health answer; then, once the demo invoices are imported, idle RSS and CPU;
 *   2. restart on that data (the everyday case): time to the first answer, idle RSS and CPU;
 *   3. 12 generated invoices uploaded by a company admin (bearer token) through POST /api/invoices:
 *      time until all are parsed, RSS of the server and of its parse child.
 * RSS and CPU are read from /proc (Linux). Run: npm run bench (or npm run bench -- server).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInvoice } from '@kulu/invoices/generator';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const IDLE_SECONDS = 10;
const UPLOADS = 12;
const DEMO_PASSWORD = 'Kulu!2026';
const ADMIN = 'admin@kulu.fi';
const COMPANY_ADMIN = 'anna.virtanen@pohjolarakennus.fi';
const TICKS = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Parent pid and CPU time (user + system, in ticks) of a process, or null when it is gone. */
function stat(pid: number): { ppid: number; cpu: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** All processes descending from `root` (npm → start.mjs → server → parse child). */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(name)]);
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(root);
  return out;
}

interface Run {
  npm: ChildProcess;
  base: string;
  startSeconds: number;
  log: () => string;
}

/** `npm start` in its own process group; resolves at the first 200 from /api/health. */
async function start(port: number, dataDir: string): Promise<Run> {
  let log = '';
  const began = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  npm.stdout?.on('data', (d) => (log = (log + d).slice(-4000)));
  npm.stderr?.on('data', (d) => (log = (log + d).slice(-4000)));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (npm.exitCode !== null || npm.signalCode !== null)
      throw new Error(`npm start exited (${npm.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - began > 300_000) throw new Error(`no answer after 300 s:\n${log}`);
    await sleep(50);
  }
  const run = { npm, base, startSeconds: (performance.now() - began) / 1000, log: () => log };
  running.push(run);
  return run;
}

/** Servers this benchmark started (stopped at the end whatever happens). */
const running: Run[] = [];

const ended = (run: Run) => run.npm.exitCode !== null || run.npm.signalCode !== null;

/** SIGTERM to the process group `npm start` leads (npm, start.mjs, server, parse child). */
async function stop(run: Run): Promise<void> {
  if (ended(run)) return;
  const exited = new Promise((r) => run.npm.once('exit', r));
  process.kill(-run.npm.pid!, 'SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
  if (!ended(run)) process.kill(-run.npm.pid!, 'SIGKILL');
}

function processes(run: Run) {
  const all = descendants(run.npm.pid!);
  const server = all.find((p) => cmdline(p).includes('dist/server.js'));
  const child = all.find((p) => cmdline(p).includes('parse-child'));
  const wrappers = [run.npm.pid!, ...all.filter((p) => p !== server && p !== child)];
  return { server, child, wrappers };
}

/** RSS now and CPU use over `seconds` of the server process (and its parse child, if running). */
async function idle(run: Run, seconds = IDLE_SECONDS) {
  const { server } = processes(run);
  if (!server) throw new Error(`no server process:\n${run.log()}`);
  const before = stat(server)!.cpu;
  const t0 = performance.now();
  await sleep(seconds * 1000);
  const cpu = ((stat(server)!.cpu - before) / TICKS / ((performance.now() - t0) / 1000)) * 100;
  const { child, wrappers } = processes(run);
  return {
    rss: rssMb(server),
    cpu,
    childRss: child ? rssMb(child) : 0,
    wrapperRss: wrappers.reduce((n, p) => n + rssMb(p), 0),
  };
}

async function api(run: Run, method: string, url: string, opts: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${run.base}${url}`, {
    method,
    headers: {
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body !== undefined && !(opts.body instanceof FormData)
        ? { 'content-type': 'application/json' }
        : {}),
    },
    body:
      opts.body === undefined
        ? undefined
        : opts.body instanceof FormData
          ? opts.body
          : JSON.stringify(opts.body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

const login = async (run: Run, email: string) =>
  (await api(run, 'POST', '/api/Account/login', { body: { email, password: DEMO_PASSWORD } }))
    .access_token as string;

const countOf = async (run: Run, token: string, query = '') =>
  (await api(run, 'GET', `/api/invoices?pageSize=1${query}`, { token })).total as number;

/** Waits until no invoice is in progress and the count has not changed for 3 s (demo imports). */
async function settle(run: Run, token: string, timeoutMs = 600_000) {
  const t0 = performance.now();
  let last = -1;
  for (;;) {
    const total = await countOf(run, token);
    const busy = await countOf(run, token, '&uploadState=in_progress');
    if (total > 0 && busy === 0 && total === last) return total;
    if (performance.now() - t0 > timeoutMs) throw new Error('the demo invoices did not finish');
    last = busy === 0 ? total : -1;
    await sleep(3000);
  }
}

async function main() {
  // The benchmark runs what `npm start` runs: build first (its output only if it fails).
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`the build failed:\n${built.stdout}\n${built.stderr}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-bench-'));
  const port = await freePort();
  const mb = (n: number) => `${n} MB`;
  const pct = (n: number) => `${n.toFixed(1)} %`;
  try {
    console.log(
      `server: compiled (npm start), PGlite, demo data; Node ${process.version}, ${os.cpus().length} CPUs`,
    );

    const first = await start(port, dataDir);
    const demoInvoices = await settle(first, await login(first, ADMIN));
    const idle1 = await idle(first);
    await stop(first);
    console.log(
      `  first start (new database): first answer after ${first.startSeconds.toFixed(1)} s; ` +
        `idle after the ${demoInvoices} demo invoices: RSS ${mb(idle1.rss)}, CPU ${pct(idle1.cpu)}` +
        `${idle1.childRss ? ` (parse child ${mb(idle1.childRss)})` : ''}`,
    );

    const again = await start(port, dataDir);
    await sleep(3000);
    const idle2 = await idle(again);
    console.log(
      `  restart (built tree, existing data): first answer after ${again.startSeconds.toFixed(1)} s; ` +
        `idle RSS ${mb(idle2.rss)}, CPU ${pct(idle2.cpu)}; npm and start.mjs ${mb(idle2.wrapperRss)}`,
    );

    const token = await login(again, COMPANY_ADMIN);
    // One request with the 12 files (an upload is refused while the caller's previous one parses).
    const form = new FormData();
    for (let i = 0; i < UPLOADS; i++) {
      const month = String(i + 1).padStart(2, '0');
      const { pdf } = await generateInvoice({
        operator: i % 2 ? 'telia' : 'elisa',
        seed: 9100 + i,
        subscriptions: 20 + i,
        invoiceDate: `2024-${month}-05`,
        pageSize: 'A4',
        font: 'Helvetica',
      });
      form.append(
        'files',
        new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }),
        `bench-${i + 1}.pdf`,
      );
    }
    const t0 = performance.now();
    const res = await api(again, 'POST', '/api/invoices', { token, body: form });
    const ids = (res.results as Array<{ invoiceId?: number }>).flatMap((r) =>
      r.invoiceId ? [r.invoiceId] : [],
    );
    let states: string[] = [];
    for (;;) {
      states = await Promise.all(
        ids.map(
          async (id) => (await api(again, 'GET', `/api/invoices/${id}`, { token })).uploadState as string,
        ),
      );
      if (!states.includes('in_progress')) break;
      if (performance.now() - t0 > 600_000) throw new Error('the uploads were not parsed in 10 minutes');
      await sleep(250);
    }
    const parsedSeconds = (performance.now() - t0) / 1000;
    const { server, child } = processes(again);
    const after = { rss: rssMb(server!), childRss: child ? rssMb(child) : 0 };
    await stop(again);
    const ok = states.filter((s) => s === 'uploaded').length;
    console.log(
      `  ${UPLOADS} uploads in one request (${ok} imported, ${UPLOADS - ok} refused or failed): parsed after ${parsedSeconds.toFixed(1)} s; ` +
        `RSS after: server ${mb(after.rss)}, parse child ${mb(after.childRss)}`,
    );
  } finally {
    for (const run of running) await stop(run);
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
