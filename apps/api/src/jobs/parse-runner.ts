import { Worker } from 'node:worker_threads';
import type { InvoiceErrorCode, ParsedInvoice } from '@kulu/invoices';

export type ParseFailureCode = InvoiceErrorCode | 'timeout' | 'out_of_memory' | 'internal';

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
  /** Wall-clock limit of one parse; the worker is terminated after it. */
  timeoutMs?: number;
  /** V8 old-generation heap of the worker. */
  maxOldGenerationSizeMb?: number;
}

const WORKER_URL = new URL('./parse-worker.mjs', import.meta.url);
/** A worker is replaced after this many parses (bounds any slow leak of pdf.js). */
const RECYCLE_AFTER = 50;

type Reply =
  | { ready: true }
  | { id: number; ok: true; invoice: ParsedInvoice }
  | { id: number; ok: false; code: ParseFailureCode; message: string };

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  uses: number;
  pending: Map<number, { resolve: (v: ParsedInvoice) => void; reject: (e: Error) => void }>;
}

let slot: Slot | null = null;
let slotLimit = 0;
let nextId = 1;
/** Parses run one at a time per process (the queue hands this instance one parse job at a time). */
let chain: Promise<unknown> = Promise.resolve();

function spawn(maxOldGenerationSizeMb: number): Slot {
  const worker = new Worker(WORKER_URL, {
    resourceLimits: { maxOldGenerationSizeMb },
    stdout: true,
    stderr: true,
  });
  worker.unref();
  const pending: Slot['pending'] = new Map();
  let markReady!: () => void;
  let failReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  ready.catch(() => {});
  const s: Slot = { worker, ready, uses: 0, pending };
  const failAll = (e: ParseFailure) => {
    failReady(e);
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    if (slot === s) slot = null;
  };
  worker.on('message', (m: Reply) => {
    if ('ready' in m) return markReady();
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.invoice);
    else p.reject(new ParseFailure(m.code, m.message));
  });
  worker.on('error', (e: Error & { code?: string }) =>
    failAll(
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new ParseFailure('out_of_memory', 'parsing needed more memory than allowed')
        : new ParseFailure('internal', e.message),
    ),
  );
  worker.on('exit', (code) =>
    failAll(new ParseFailure('internal', `the parse worker stopped (exit code ${code})`)),
  );
  return s;
}

function retire(s: Slot) {
  if (slot === s) slot = null;
  void s.worker.terminate();
}

async function runOne(pdf: Uint8Array, limits: ParseLimits): Promise<ParsedInvoice> {
  const timeoutMs = limits.timeoutMs ?? 60_000;
  const heap = limits.maxOldGenerationSizeMb ?? 512;
  if (slot && slotLimit !== heap) retire(slot);
  if (!slot) {
    slot = spawn(heap);
    slotLimit = heap;
  }
  const s = slot;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      retire(s);
      reject(new ParseFailure('timeout', `parsing took longer than ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  });
  try {
    // The limit covers starting a fresh worker (loading pdf.js) and the parse.
    await Promise.race([s.ready, timeout]);
    const id = nextId++;
    const copy = new Uint8Array(pdf).buffer;
    const result = new Promise<ParsedInvoice>((resolve, reject) => s.pending.set(id, { resolve, reject }));
    s.worker.postMessage({ id, pdf: copy }, [copy]);
    s.uses++;
    const invoice = await Promise.race([result, timeout]);
    if (s.uses >= RECYCLE_AFTER) retire(s);
    return invoice;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Parses a PDF in a worker thread with a time and memory limit, so that a hostile PDF can neither
 * hang nor crash the server: on timeout the worker is terminated, running out of its heap ends
 * only the worker, and the next parse starts a fresh one. The worker (with pdf.js loaded) is kept
 * between parses. Resolves with the structured invoice or rejects with a ParseFailure.
 */
export function parseInWorker(pdf: Uint8Array, limits: ParseLimits = {}): Promise<ParsedInvoice> {
  const run = chain.then(() => runOne(pdf, limits));
  chain = run.catch(() => {});
  return run;
}

/** Stops the parse worker (graceful shutdown). */
export async function stopParseWorker(): Promise<void> {
  const s = slot;
  slot = null;
  if (s) await s.worker.terminate();
}
