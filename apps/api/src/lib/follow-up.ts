import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Deps } from '../types.js';

/**
 * The follow-up work of an import (a client's optimization, an invoice's alert rules) off the API's
 * event loop (issue 37): after a 50,000-subscription e-invoice it held the loop for 13–54 s, every
 * request waited, and another client's honest invoice failed. On PostgreSQL (the embedded server or
 * DATABASE_URL) it runs on a worker thread of this process with its own connections to the same
 * database: its reading, computing and writing never block a request. One worker per process,
 * started on the first task, gone after `IDLE_MS` without one; the queue hands an instance one job
 * of each kind at a time, and those jobs are fair between clients like the parses (decision 0019:
 * a client's optimization is one waiting job, an invoice's alert rules queue behind the client's
 * own). PGlite (the test suites, the fallback where the embedded server cannot run) lives in this
 * thread, so there the work runs here.
 */

/** What the worker runs (jobs/follow-up-worker.ts). */
export type FollowUpTask =
  | { kind: 'optimize'; clientId: number; runIds: number[]; now: string }
  | { kind: 'alerts'; invoiceId: number };

export type FollowUpReply =
  { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

/** How long the worker (its module graph and database connections) waits for the next task. */
const IDLE_MS = 30_000;

interface Running {
  url: string;
  worker: Worker;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  idle?: NodeJS.Timeout;
  exited: Promise<void>;
}

/** The worker of each database (one in a server; the test suites open several). */
const running = new Map<string, Running>();
let nextId = 1;
/** Tasks this process ran on the worker thread (tests, measurement). */
export const followUpCounts = { worker: 0, inProcess: 0 };

/**
 * How the worker starts. From TypeScript (tests, tsx) its entry is loaded through tsx's loader; the
 * compiled server starts `follow-up-worker.js` beside its bundle (scripts/build.mjs).
 */
function startWorker(url: string): Worker {
  const fromTs = /\.[cm]?ts$/.test(new URL(import.meta.url).pathname);
  // The worker's entry is jobs/follow-up-worker.ts (it imports the modules' work); bundled, it
  // sits beside the server's files.
  const entry = new URL(fromTs ? '../jobs/follow-up-worker.ts' : './follow-up-worker.js', import.meta.url);
  const workerData = { url };
  if (!fromTs) return new Worker(fileURLToPath(entry), { workerData });
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href.replace(
    /\.cjs$/,
    '.mjs',
  );
  const boot = `import(${JSON.stringify(api)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

function ensure(url: string): Running {
  const known = running.get(url);
  if (known) return known;
  const worker = startWorker(url);
  const pending: Running['pending'] = new Map();
  let exited!: () => void;
  const r: Running = { url, worker, pending, exited: new Promise((resolve) => (exited = resolve)) };
  const failAll = (e: Error) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    if (running.get(url) === r) running.delete(url);
  };
  worker.on('message', (m: FollowUpReply) => {
    if ('ready' in m) return;
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.message));
    if (!pending.size) idleLater(r);
  });
  worker.on('error', (e) => failAll(e));
  worker.on('exit', (code) => {
    clearTimeout(r.idle);
    exited();
    failAll(new Error(`the follow-up worker stopped (exit code ${code})`));
  });
  worker.unref();
  running.set(url, r);
  return r;
}

function idleLater(r: Running) {
  clearTimeout(r.idle);
  r.idle = setTimeout(() => {
    if (running.get(r.url) === r && !r.pending.size) void stop(r);
  }, IDLE_MS);
  r.idle.unref();
}

/** Ends the worker: it closes its database connections, then exits (or is terminated). */
async function stop(r: Running): Promise<void> {
  if (running.get(r.url) === r) running.delete(r.url);
  clearTimeout(r.idle);
  r.worker.postMessage({ stop: true });
  const late = setTimeout(() => void r.worker.terminate(), 5_000);
  late.unref();
  await r.exited;
  clearTimeout(late);
}

function run<T>(deps: Deps, task: FollowUpTask): Promise<T> | null {
  const { database } = deps;
  if (database.kind !== 'postgres' || !database.url) {
    followUpCounts.inProcess++;
    return null;
  }
  const r = ensure(database.url);
  clearTimeout(r.idle);
  const id = nextId++;
  const answer = new Promise<T>((resolve, reject) =>
    r.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }),
  );
  r.worker.postMessage({ id, task });
  followUpCounts.worker++;
  return answer;
}

/**
 * A client's optimization (`optimizeClient` of its claimed runs, at `now`) on the worker thread;
 * null where it must run here (PGlite).
 */
export const optimizeOffLoop = <T>(deps: Deps, clientId: number, runIds: number[]): Promise<T> | null =>
  run<T>(deps, { kind: 'optimize', clientId, runIds, now: deps.now().toISOString() });

/** An invoice's alert rules evaluated on the worker thread (alerts added); null where they must run here. */
export const evaluateAlertsOffLoop = (deps: Deps, invoiceId: number): Promise<number> | null =>
  run<number>(deps, { kind: 'alerts', invoiceId });

/**
 * Stops this process's follow-up worker of `database` (graceful shutdown; a running task's job is
 * retried). Its connections are closed before this resolves.
 */
export async function stopFollowUpWorker(database: Pick<Deps['database'], 'url'>): Promise<void> {
  const r = database.url ? running.get(database.url) : undefined;
  if (r) await stop(r);
}
