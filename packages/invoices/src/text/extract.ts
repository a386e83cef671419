import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Document } from 'mupdf';
import { PdfReadError } from '../errors.js';
import type { TextDocument, TextItem, TextPage } from '../types.js';
import { buildLines } from './layout.js';
import { openPdf, readPages, type RawPage } from './mupdf-pages.mjs';

export interface ExtractOptions {
  /** Refuse documents with more pages than this (default 5000). */
  maxPages?: number;
  /**
   * Threads that read pages at once (the calling thread included); default: the machine's
   * processors, at most 4. Documents under 32 pages are always read on the calling thread.
   */
  threads?: number;
}

const PDF_MAGIC = '%PDF-';
/** Below this many pages a worker thread costs more (start-up, loading MuPDF) than it saves. */
const PARALLEL_MIN_PAGES = 32;
const PAGES_PER_THREAD_MIN = 16;
const MAX_THREADS = 4;

/** True when the bytes start like a PDF (`%PDF-` within the first 1024 bytes, as readers allow). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  return head.includes(PDF_MAGIC);
}

/**
 * Reads a PDF with MuPDF into pages of positioned text items merged into lines (top-down y, items
 * sorted by x). Large documents are read in page ranges on worker threads at once. Bad input gives a
 * PdfReadError, never a crash.
 */
export async function extractText(pdf: Uint8Array, options: ExtractOptions = {}): Promise<TextDocument> {
  const maxPages = options.maxPages ?? 5000;
  if (pdf.length === 0) throw new PdfReadError('not_a_pdf', 'not a PDF: the file is empty');
  if (!looksLikePdf(pdf))
    throw new PdfReadError('not_a_pdf', 'not a PDF: the file does not start with %PDF-');

  let doc: Document | undefined;
  try {
    doc = openPdf(pdf);
    if (doc.needsPassword()) {
      throw new PdfReadError('encrypted_pdf', 'the PDF is encrypted (password protected) and cannot be read');
    }
    const count = doc.countPages();
    if (count > maxPages) {
      throw new PdfReadError(
        'unreadable_pdf',
        `the PDF has ${count} pages, more than the ${maxPages} allowed`,
      );
    }
    const threads = threadCount(count, options.threads);
    const raw = threads > 1 ? await readInParallel(pdf, doc, count, threads) : readPages(doc, 0, count);
    const pages = raw.map((page, i) => toTextPage(page, i + 1));
    return doc.asPDF()?.wasRepaired() ? { pages, repaired: true } : { pages };
  } catch (err) {
    if (err instanceof PdfReadError) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    throw new PdfReadError('unreadable_pdf', `the PDF cannot be read: ${detail}`, { cause: err });
  } finally {
    doc?.destroy();
  }
}

function threadCount(pages: number, requested: number | undefined): number {
  if (pages < PARALLEL_MIN_PAGES) return 1;
  const wanted = requested ?? Math.min(availableParallelism(), MAX_THREADS);
  return Math.max(1, Math.min(Math.floor(wanted), Math.floor(pages / PAGES_PER_THREAD_MIN)));
}

/** Splits the pages into `threads` contiguous ranges: the last on this thread, the others on workers. */
async function readInParallel(
  pdf: Uint8Array,
  doc: Document,
  count: number,
  threads: number,
): Promise<RawPage[]> {
  const bounds = Array.from({ length: threads + 1 }, (_, i) => Math.round((i * count) / threads));
  const workers = bounds.slice(0, threads - 1).map((first, i) => readOnWorker(pdf, first, bounds[i + 1]));
  // Started workers must not outlive a failure on this thread: collect their results either way.
  const settled = Promise.allSettled(workers);
  let own: RawPage[];
  try {
    own = readPages(doc, bounds[threads - 1], count);
  } finally {
    await settled;
  }
  const ranges = await Promise.all(workers);
  return [...ranges.flat(), ...own];
}

function readOnWorker(pdf: Uint8Array, first: number, last: number): Promise<RawPage[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./mupdf-pages.mjs', import.meta.url), {
      workerData: { kind: 'kulu-mupdf-pages', bytes: pdf, first, last },
      // A worker inherits the parent's loaders (tsx) otherwise; the file is plain JavaScript.
      execArgv: [],
    });
    let done = false;
    worker.once('message', (msg: { pages?: RawPage[]; error?: string }) => {
      done = true;
      if (msg.pages) resolve(msg.pages);
      else reject(new Error(msg.error ?? 'the page reader stopped'));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      done = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (!done) reject(new Error(`the page reader stopped (exit code ${code})`));
    });
  });
}

function toTextPage(raw: RawPage, number: number): TextPage {
  const items: TextItem[] = raw.strs.map((str, i) => ({
    str,
    x: raw.nums[4 * i],
    y: raw.nums[4 * i + 1],
    width: raw.nums[4 * i + 2],
    height: raw.nums[4 * i + 3] || 10,
  }));
  return { number, width: raw.width, height: raw.height, lines: buildLines(items, number) };
}
