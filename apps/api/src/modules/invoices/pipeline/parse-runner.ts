import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
// Types only: the API process never loads the PDF library (see parse-child.ts).
import type { InvoiceErrorCode, ParsedInvoice } from '@kulu/invoices';

export type ParseFailureCode =
  InvoiceErrorCode | 'timeout' | 'out_of_memory' | 'expands_too_much' | 'internal';

/** Why a PDF could not be parsed: the parser's error code and its (English, detailed) message. */
export class ParseFailure extends Error {
  constructor(
    readonly code: ParseFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'ParseFailure';
  }
}

export interface ParseLimits {
  /**
   * Limit of one parse once the child is ready (a child started for it has `startTimeoutMs` to
   * load the PDF library first), counted as the child's own CPU time (all its threads): time the
   * child waits for a core, or the server's event loop is busy with other work, does not count
   * (issue 37). The child is killed when it has parsed this long, or when four times this has
   * passed on the clock (at most this + 50 s: a parse that does not progress); where the child's
   * CPU time cannot be read (no /proc), the clock alone counts.
   */
  timeoutMs?: number;
  /** How long a newly started child may take to load before the parse fails as a timeout. */
  startTimeoutMs?: number;
  /**
   * Hard cap on the child's whole resident memory (RSS): MuPDF's memory in the child may not grow
   * past 90 % of it, and the watchdog kills the child before its sampled memory would pass it.
   */
  maxMemoryMb?: number;
  /**
   * The most all streams of one file may decode to (each filter's output, plus an allowance per
   * stream and object), checked before the PDF is read (inflate-check.ts). Default: half of
   * `maxMemoryMb`.
   */
  inflateLimitMb?: number;
  /**
   * How long the child (~100 MB with MuPDF loaded) waits for the next parse after one ends before it
   * exits; the next parse starts a new one (about half a second, in the background job).
   */
  idleMs?: number;
}

export const DEFAULT_PARSE_TIMEOUT_MS = 120_000;
/** Loading the PDF library is not the file's doing: it does not count against the file's limit. */
export const DEFAULT_PARSE_START_TIMEOUT_MS = 60_000;
export const DEFAULT_PARSE_MEMORY_MB = 512;
/** Long enough for a batch of uploads (or the demo invoices) to reuse one child. */
export const DEFAULT_PARSE_IDLE_MS = 5_000;

/** A child is replaced after this many parses (bounds any slow leak of the PDF library). */
const RECYCLE_AFTER = 50;
/** How often the watchdog reads the child's resident memory while a parse runs (idle: every 10th). */
const WATCH_MS = 10;
/**
 * The watchdog kills the child this far below the cap: at least 5 % of it, and at least three
 * times what the child grew by since the last reading (the next reading must not find it above).
 */
const MARGIN_SHARE = 0.05;
const MARGIN_GROWTHS = 3;
/** /proc counts CPU time in clock ticks of 10 ms (USER_HZ, 100 on Linux). */
const CPU_TICK_MS = 10;
/** A parse that does not progress ends on the clock after this many times its limit… */
const WALL_FACTOR = 4;
/** …and at most this long after it (the parse job expires PARSE_JOB_MARGIN_SECONDS after the cap). */
const WALL_MARGIN_MS = 50_000;

/**
 * How the child is started. The runner running from TypeScript (tests, tsx) starts
 * `node --import tsx parse-child.ts`; compiled to JavaScript (`node dist/...`) it starts
 * `node parse-child.js` beside itself. Decided by this module's own file extension.
 */
export function childCommand(heapMb: number, moduleUrl = import.meta.url): string[] {
  const fromTs = /\.[cm]?ts$/.test(new URL(moduleUrl).pathname);
  const child = fileURLToPath(new URL(`./parse-child.${fromTs ? 'ts' : 'js'}`, moduleUrl));
  const heap = `--max-old-space-size=${heapMb}`;
  if (!fromTs) return [heap, child];
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return ['--import', tsx, heap, child];
}

/** Resident memory of a process in bytes from /proc (Linux); null where it cannot be read. */
function residentBytes(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
    const m = /VmRSS:\s+(\d+)\s*kB/.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time of a process (user + system, all threads) in ms from /proc (Linux); null where it cannot be read. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
    // After the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * CPU_TICK_MS : null;
  } catch {
    return null;
  }
}

type Reply =
  | { ready: true }
  | { id: number; ok: true; invoice: ParsedInvoice; ms?: number }
  | { id: number; ok: false; code: ParseFailureCode; message: string };

interface Slot {
  child: ChildProcess;
  capMb: number;
  ready: Promise<void>;
  exited: Promise<void>;
  uses: number;
  /** Highest resident memory seen since the current parse began, in bytes. */
  peak: number;
  /** The last reading of the child's resident memory, in bytes. */
  last: number;
  /** Set when the runner kills the child itself, so its exit is reported for that reason. */
  killedFor: ParseFailure | null;
  pending: Map<
    number,
    { resolve: (v: { invoice: ParsedInvoice; ms?: number }) => void; reject: (e: Error) => void }
  >;
  /** Ends the child when no parse came within the idle time after the last one. */
  idleTimer?: NodeJS.Timeout;
}

let slot: Slot | null = null;
let nextId = 1;
/** Parses run one at a time per process (the queue hands this instance one parse job at a time). */
let chain: Promise<unknown> = Promise.resolve();
let last: ParseStats = { peakRssMb: 0 };

/** What the last parse took: memory, and where its time went (the parse job's phase timing). */
export interface ParseStats {
  /** The highest resident memory of the child during the parse. */
  peakRssMb: number;
  /** Waiting for the child to be ready: 0 when one was running, else its start (node, the readers). */
  startMs?: number;
  /** The check and the parse in the child, as it measured them. */
  childMs?: number;
  /** From the call to the answer: the start, the file's way to the child, the parse, the answer's way back. */
  totalMs?: number;
}

function childEnv(): NodeJS.ProcessEnv {
  // The child gets no secrets (database URL, keys): only what node and tsx need.
  const env: NodeJS.ProcessEnv = {};
  for (const k of ['PATH', 'TMPDIR', 'TZ', 'LANG', 'NODE_ENV']) if (process.env[k]) env[k] = process.env[k];
  return env;
}

function start(capMb: number): Slot {
  const heapMb = Math.max(32, Math.floor(capMb * 0.75));
  const [first, ...rest] = childCommand(heapMb);
  const child = spawn(process.execPath, [first, ...rest], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
    env: childEnv(),
  });
  const pending: Slot['pending'] = new Map();
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {});
  let markExited!: () => void;
  const exited = new Promise<void>((resolve) => (markExited = resolve));
  const s: Slot = { child, capMb, ready, exited, uses: 0, peak: 0, last: 0, killedFor: null, pending };
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (d: string) => {
    stderr = (stderr + d).slice(-4000);
  });
  const cap = capMb * 1024 * 1024;
  let tick = 0;
  const watchdog = setInterval(() => {
    if (!pending.size && tick++ % 10 !== 0) return;
    const rss = child.pid ? residentBytes(child.pid) : null;
    if (rss == null) return;
    const grew = Math.max(0, rss - s.last);
    s.last = rss;
    if (rss > s.peak) s.peak = rss;
    const margin = Math.max(cap * MARGIN_SHARE, grew * MARGIN_GROWTHS);
    if (rss > cap - margin && !s.killedFor) {
      kill(s, new ParseFailure('out_of_memory', `parsing needed more than ${capMb} MB of memory`));
    }
  }, WATCH_MS);
  watchdog.unref();
  const failAll = (e: ParseFailure) => {
    failReady(e);
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    if (slot === s) slot = null;
  };
  child.on('message', (m: Reply) => {
    if ('ready' in m) return markReady();
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve({ invoice: m.invoice, ms: m.ms });
    else p.reject(new ParseFailure(m.code, m.message));
  });
  child.on('error', (e) => {
    clearInterval(watchdog);
    markExited();
    failAll(new ParseFailure('internal', `the parse process failed: ${e.message}`));
  });
  child.on('exit', (code, signal) => {
    clearInterval(watchdog);
    clearTimeout(s.idleTimer);
    markExited();
    const heapOut = /heap out of memory|Allocation failed/i.test(stderr);
    failAll(
      s.killedFor ??
        (heapOut
          ? new ParseFailure('out_of_memory', `parsing needed more than ${capMb} MB of memory`)
          : new ParseFailure(
              'internal',
              `the parse process stopped (${signal ?? `exit code ${code}`})${stderr ? `: ${stderr.trim().slice(-500)}` : ''}`,
            )),
    );
  });
  child.unref();
  child.channel?.unref();
  return s;
}

/**
 * The parse's time limit: rejects (the child killed) once the child has spent `timeoutMs` of CPU
 * time since now, or the clock has passed its bound (`WALL_FACTOR` times the limit, at most
 * `WALL_MARGIN_MS` more). Checked when the limit could first be reached and again until then, so a
 * check that comes late (the event loop was busy) finds the CPU time the parse really took; a
 * parse that answered meanwhile is taken (its answer waits behind the check, not the other way).
 */
function parseLimit(
  s: Slot,
  timeoutMs: number,
  arm: (next: { check: () => void; after: number }) => void,
): Promise<never> {
  const pid = s.child.pid;
  const cpuAtStart = pid ? processCpuMs(pid) : null;
  const began = performance.now();
  const wallMs =
    cpuAtStart == null ? timeoutMs : Math.min(timeoutMs * WALL_FACTOR, timeoutMs + WALL_MARGIN_MS);
  const seconds = (ms: number) => Math.round(ms / 100) / 10;
  return new Promise<never>((_, reject) => {
    const check = () => {
      const now = pid && cpuAtStart != null ? processCpuMs(pid) : null;
      const used = now == null || cpuAtStart == null ? null : now - cpuAtStart;
      const wall = performance.now() - began;
      let e: ParseFailure | null = null;
      if (used != null && used >= timeoutMs) {
        e = new ParseFailure('timeout', `parsing took longer than ${seconds(timeoutMs)} s`);
      } else if (wall >= wallMs) {
        e = new ParseFailure('timeout', `parsing took longer than ${seconds(wallMs)} s`);
      }
      if (e) {
        kill(s, e);
        reject(e);
        return;
      }
      const left = Math.min(timeoutMs - (used ?? wall), wallMs - wall);
      arm({ check, after: Math.max(CPU_TICK_MS, left) });
    };
    arm({ check, after: timeoutMs });
  });
}

function kill(s: Slot, reason: ParseFailure) {
  s.killedFor ??= reason;
  if (slot === s) slot = null;
  s.child.kill('SIGKILL');
}

async function runOne(pdf: Uint8Array, limits: ParseLimits): Promise<ParsedInvoice> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const capMb = limits.maxMemoryMb ?? DEFAULT_PARSE_MEMORY_MB;
  const inflateLimitBytes = Math.floor((limits.inflateLimitMb ?? capMb / 2) * 1024 * 1024);
  if (slot && slot.capMb !== capMb) kill(slot, new ParseFailure('internal', 'replaced'));
  slot ??= start(capMb);
  const s = slot;
  clearTimeout(s.idleTimer);
  s.peak = 0;
  const began = performance.now();
  let readyMs: number | undefined;
  let childMs: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  const limit = (ms: number, e: ParseFailure) =>
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        kill(s, e);
        reject(e);
      }, ms);
    });
  try {
    const startMs = limits.startTimeoutMs ?? DEFAULT_PARSE_START_TIMEOUT_MS;
    const started = new ParseFailure('timeout', `the parse process did not start within ${startMs / 1000} s`);
    await Promise.race([s.ready, limit(startMs, started)]);
    clearTimeout(timer);
    readyMs = performance.now() - began;
    const id = nextId++;
    const result = new Promise<{ invoice: ParsedInvoice; ms?: number }>((resolve, reject) =>
      s.pending.set(id, { resolve, reject }),
    );
    const timeout = parseLimit(s, timeoutMs, (next) => (timer = setTimeout(next.check, next.after)));
    s.child.send({ id, pdf, inflateLimitBytes, memoryLimitBytes: capMb * 1024 * 1024 });
    s.uses++;
    const answer = await Promise.race([result, timeout]).catch((e: unknown) => {
      // MuPDF refused memory in the child: its state is not trusted for another parse.
      if (e instanceof ParseFailure && e.code === 'out_of_memory')
        kill(s, new ParseFailure('internal', 'recycled'));
      throw e;
    });
    childMs = answer.ms;
    if (s.uses >= RECYCLE_AFTER) kill(s, new ParseFailure('internal', 'recycled'));
    return answer.invoice;
  } finally {
    clearTimeout(timer);
    last = {
      peakRssMb: Math.round(s.peak / (1024 * 1024)),
      startMs: readyMs,
      childMs,
      totalMs: performance.now() - began,
    };
    // A child that kept much of what a parse took is not kept for the next one.
    const rss = s.child.pid ? residentBytes(s.child.pid) : null;
    if (slot === s && rss != null && rss > (capMb * 1024 * 1024) / 2) {
      kill(s, new ParseFailure('internal', 'recycled'));
    }
    if (slot === s) {
      s.idleTimer = setTimeout(() => retire(s), limits.idleMs ?? DEFAULT_PARSE_IDLE_MS);
      s.idleTimer.unref();
    }
  }
}

/** An idle child leaves: cut off from the runner, it exits by itself (parse-child.ts, on disconnect). */
function retire(s: Slot) {
  if (slot !== s || s.pending.size) return;
  slot = null;
  s.killedFor ??= new ParseFailure('internal', 'the parse process was idle');
  if (s.child.connected) s.child.disconnect();
  else s.child.kill('SIGKILL');
}

/**
 * Starts the parse child now if none is running, so that its start (node and the readers, about half
 * a second, more under load) overlaps what the job does before it parses (reading the file back
 * from the database) instead of following it (issue 24). It leaves after `idleMs` if no parse
 * comes. A running child is left as it is.
 */
export function warmParseChild(limits: Pick<ParseLimits, 'maxMemoryMb' | 'idleMs'> = {}): void {
  if (slot) return;
  const s = start(limits.maxMemoryMb ?? DEFAULT_PARSE_MEMORY_MB);
  slot = s;
  s.idleTimer = setTimeout(() => retire(s), limits.idleMs ?? DEFAULT_PARSE_IDLE_MS);
  s.idleTimer.unref();
}

/** The pid of the parse child while one lives (tests, measurement). */
export function parseChildPid(): number | null {
  return slot?.child.pid ?? null;
}

/**
 * Parses a PDF in a child process, so that a hostile PDF can neither hang, crash nor exhaust the
 * server: MuPDF's memory in the child may not grow past 90 % of `maxMemoryMb`, and the child's whole
 * resident memory is read every 10 ms during a parse and the child killed before a reading would
 * pass `maxMemoryMb` (a worker thread's limit would cover only the JS heap, not inflated streams);
 * the child is killed once it has parsed for `timeoutMs` (its own CPU time, not the time it waited
 * for a core or for this process's event loop); a file whose streams decode beyond `inflateLimitMb` fails
 * before the PDF library reads it. One parse at a time; the child (PDF library loaded) is kept
 * between parses, exits after `idleMs` without one, and is replaced after a failure of its own or
 * every 50 parses. Resolves with the structured invoice or rejects with a ParseFailure.
 */
export function parseInChild(pdf: Uint8Array, limits: ParseLimits = {}): Promise<ParsedInvoice> {
  const run = chain.then(() => runOne(pdf, limits));
  chain = run.catch(() => {});
  return run;
}

/** The highest resident memory of the parse child during the last parse (measurement, tests). */
export function lastParseStats(): ParseStats {
  return last;
}

/** Stops the parse child (graceful shutdown). */
export async function stopParseChild(): Promise<void> {
  const s = slot;
  slot = null;
  if (!s) return;
  kill(s, new ParseFailure('internal', 'the parse process was stopped'));
  await s.exited;
}
