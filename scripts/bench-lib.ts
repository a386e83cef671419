/**
 * What the server benchmarks share: `npm start` in its own process group on a free port, stopped at
 * the end whatever happens; the process tree's RSS and CPU from /proc (Linux); signing in and the
 * demo invoices' import.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
export { freePort } from './free-port.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEMO_PASSWORD = 'Kulu!2026';
export const ADMIN = 'admin@kulu.fi';
export const COMPANY_ADMIN = 'anna.virtanen@pohjolarakennus.fi';
/** The company admin of the second demo client (Saimaan Logistiikka): "another tenant". */
export const OTHER_ADMIN = 'jussi.makinen@saimaanlogistiikka.fi';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Parent pid and CPU time (user + system, in ticks) of a process, or null when it is gone. */
export function stat(pid: number): { ppid: number; cpu: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

export function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** All processes descending from `root` (npm → server → parse child, embedded PostgreSQL). */
export function descendants(root: number): number[] {
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

export interface Run {
  npm: ChildProcess;
  base: string;
  startSeconds: number;
  log: () => string;
  /**
   * The server's log lines with phase timings (LOG_LEVEL=debug: upload requests, parse and
   * optimize jobs; apps/api/src/lib/phases.ts), parsed, in order.
   */
  phases: Array<Record<string, unknown> & { msg: string; time: number; phases: Record<string, number> }>;
}

/**
 * `npm start` in its own process group (with start.mjs's `args`, such as `--no-web`); resolves at
 * the first 200 from /api/health.
 */
export async function start(
  port: number,
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<Run> {
  let log = '';
  const began = performance.now();
  const npm = spawn('npm', ['start', '--silent', ...(args.length ? ['--', ...args] : [])], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  const phases: Run['phases'] = [];
  let partial = '';
  npm.stdout?.on('data', (d) => {
    log = (log + d).slice(-4000);
    const lines = (partial + d).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"phases"')) continue;
      try {
        phases.push(JSON.parse(line));
      } catch {
        // not a log line of ours
      }
    }
  });
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
  const run = { npm, base, startSeconds: (performance.now() - began) / 1000, log: () => log, phases };
  running.push(run);
  return run;
}

/** Servers this benchmark started (stopped at the end whatever happens). */
export const running: Run[] = [];

export const ended = (run: Run) => run.npm.exitCode !== null || run.npm.signalCode !== null;

/** SIGTERM to the process group `npm start` leads (npm, server, parse child, database). */
export async function stop(run: Run): Promise<void> {
  if (ended(run)) return;
  const exited = new Promise((r) => run.npm.once('exit', r));
  process.kill(-run.npm.pid!, 'SIGTERM');
  await Promise.race([exited, sleep(30_000)]);
  if (!ended(run)) process.kill(-run.npm.pid!, 'SIGKILL');
}

export function processes(run: Run) {
  const all = descendants(run.npm.pid!);
  // `npm start` runs the server in start.mjs's own process (a child dist/server.js only when
  // start.mjs is started without the server's settings).
  const server =
    all.find((p) => cmdline(p).includes('dist/server.js')) ??
    all.find((p) => cmdline(p).includes('scripts/start.mjs'));
  const child = all.find((p) => cmdline(p).includes('parse-child'));
  // The embedded PostgreSQL: its postmaster and the processes it forks (named "postgres: ...").
  const database = all.filter((p) => /(^|\/)postgres( |:)/.test(cmdline(p)));
  const wrappers = [run.npm.pid!, ...all.filter((p) => p !== server && p !== child && !database.includes(p))];
  return { server, child, database, wrappers, tree: [run.npm.pid!, ...all] };
}

/**
 * Proportional set size in MB (shared pages divided among the processes sharing them): the fair
 * sum over PostgreSQL's processes, which share their buffers.
 */
export function pssMb(pid: number): number {
  try {
    const m = /Pss:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export async function api(
  run: Run,
  method: string,
  url: string,
  opts: { token?: string; body?: unknown } = {},
) {
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

export const login = async (run: Run, email: string) =>
  (await api(run, 'POST', '/api/Account/login', { body: { email, password: DEMO_PASSWORD } }))
    .access_token as string;

export const countOf = async (run: Run, token: string, query = '') =>
  (await api(run, 'GET', `/api/invoices?pageSize=1${query}`, { token })).total as number;

/** A multipart upload body of invoice files (POST /api/invoices). */
export function uploadForm(files: Array<{ name: string; data: Uint8Array; type?: string }>): FormData {
  const form = new FormData();
  for (const f of files)
    form.append('files', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/pdf' }), f.name);
  return form;
}

/** Uploads files in one request; the ids of the invoices it accepted. */
export async function upload(run: Run, token: string, files: Parameters<typeof uploadForm>[0]) {
  const res = await api(run, 'POST', '/api/invoices', { token, body: uploadForm(files) });
  return (res.results as Array<{ invoiceId?: number }>).flatMap((r) => (r.invoiceId ? [r.invoiceId] : []));
}

/** Polls an invoice every `everyMs` until it is no longer in progress; its detail then. */
export async function finished(run: Run, token: string, id: number, everyMs = 100, timeoutMs = 600_000) {
  const t0 = performance.now();
  for (;;) {
    const invoice = await api(run, 'GET', `/api/invoices/${id}`, { token });
    if (invoice.uploadState !== 'in_progress') return invoice;
    if (performance.now() - t0 > timeoutMs) throw new Error(`invoice ${id} still in progress`);
    await sleep(everyMs);
  }
}

/**
 * A generated DNA invoice of exactly five pages (the number of subscriptions that gives them),
 * addressed to the second demo client (OTHER_ADMIN's).
 */
export async function fivePagePdf(seed: number): Promise<Uint8Array> {
  const { generateInvoice } = await import('@kulu/invoices/generator');
  const mupdf = await import('mupdf');
  for (let subscriptions = 10; ; subscriptions++) {
    const { pdf } = await generateInvoice({
      operator: 'dna',
      subscriptions,
      seed,
      buyer: { name: 'Saimaan Logistiikka Oy', businessId: '0737546-2' },
    });
    const pages = mupdf.Document.openDocument(pdf, 'application/pdf').countPages();
    if (pages === 5) return pdf;
    if (pages > 5) throw new Error(`no five-page invoice for seed ${seed}`);
  }
}

/** Waits until no invoice is in progress and the count has not changed for 3 s (demo imports). */
export async function settle(run: Run, token: string, timeoutMs = 600_000) {
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
