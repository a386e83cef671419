/**
 * `npm run bench`: parse speed on generated invoices (A4, Helvetica): a 500-subscription invoice of
 * each operator and a 2,000-subscription Elisa invoice.
 *
 * Two figures per file:
 * - in process: the median time of text extraction (MuPDF, pages on worker threads, lines) plus
 *   parsing and reconciliation, as `parseInvoice(bytes)` does, and its text-extraction part;
 * - end to end, as whole processes, when poppler's `pdftotext` is installed (apt package
 *   poppler-utils): the CLI `node packages/invoices/bin/kulu-invoice.mjs parse FILE` (what
 *   `npm run invoice -- parse FILE` runs, without npm's own start-up) against `pdftotext -layout FILE -`,
 *   run in turn (CLI, pdftotext, CLI, …) and compared pair by pair; the ratio column is the median of
 *   the per-pair ratios, so a machine that slows down during the bench moves both sides of a pair.
 *
 * Env: BENCH_RUNS (default 5), BENCH_SIZES (default "500,2000"; the 2,000 size is Elisa only).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateInvoice } from '../src/generator/generate.js';
import { parseDocument, parseInvoice } from '../src/registry.js';
import { extractText } from '../src/text/extract.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SIZES = (process.env.BENCH_SIZES ?? '500,2000').split(',').map(Number);
const CLI = fileURLToPath(new URL('../bin/kulu-invoice.mjs', import.meta.url));

function hasPdftotext(): boolean {
  return !spawnSync('pdftotext', ['-v'], { stdio: 'ignore' }).error;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timeIt(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** Runs the CLI and pdftotext in turn; medians of each and of the per-pair ratio. */
async function endToEnd(file: string): Promise<{ cli: number; poppler: number; ratio: number }> {
  const run = (cmd: string, args: string[]) => () => {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  };
  const cli = run(process.execPath, [CLI, 'parse', file]);
  const poppler = run('pdftotext', ['-layout', file, '-']);
  cli(); // warm-up; also compiles the CLI when the sources changed
  poppler();
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await timeIt(cli));
    b.push(await timeIt(poppler));
  }
  return { cli: median(a), poppler: median(b), ratio: median(a.map((t, i) => t / b[i])) };
}

const poppler = hasPdftotext();
const cases = SIZES.flatMap((subscriptions) =>
  (subscriptions > 500 ? ['elisa'] : ['elisa', 'telia', 'dna']).map((operator) => ({
    operator,
    subscriptions,
  })),
);
const dir = mkdtempSync(join(tmpdir(), 'kulu-bench-'));
const rows: Record<string, string | number>[] = [];
try {
  for (const { operator, subscriptions } of cases) {
    const generated = await generateInvoice({
      operator,
      subscriptions,
      seed: 500,
      pageSize: 'A4',
      font: 'Helvetica',
    });
    const file = join(dir, `${operator}-${subscriptions}.pdf`);
    writeFileSync(file, generated.pdf);
    await parseInvoice(generated.pdf); // warm-up (JIT, MuPDF's WebAssembly)
    const textTimes: number[] = [];
    const parseTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const doc = await extractText(generated.pdf);
      const t1 = performance.now();
      parseDocument(doc);
      textTimes.push(t1 - t0);
      parseTimes.push(performance.now() - t0);
    }
    const parseMs = median(parseTimes);
    const extractMs = median(textTimes);
    const row: Record<string, string | number> = {
      operator,
      subscriptions,
      pages: generated.pages,
      KB: Math.round(generated.pdf.length / 1024),
      'parse ms': Math.round(parseMs),
      'of which text ms': Math.round(extractMs),
      'pages/s': Math.round((generated.pages / parseMs) * 1000),
    };
    if (poppler) {
      const e2e = await endToEnd(file);
      row['CLI ms'] = Math.round(e2e.cli);
      row['pdftotext -layout ms'] = Math.round(e2e.poppler);
      row['CLI / pdftotext'] = `${e2e.ratio.toFixed(2)}×`;
    }
    rows.push(row);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `Parse speed, generated invoices (A4, Helvetica), median of ${RUNS} runs, Node ${process.version}, ` +
    `pdftotext ${poppler ? popplerVersion() : 'not installed'}`,
);
console.table(rows);
if (poppler) {
  for (const row of rows)
    console.log(
      `parse ratio vs pdftotext at ${row.subscriptions} subscriptions (${row.operator}, ${row.pages} pages): ` +
        `${row['CLI / pdftotext']} end to end`,
    );
} else {
  console.log(
    'pdftotext not found: install poppler-utils for the end-to-end comparison (apt-get install poppler-utils).',
  );
}

function popplerVersion(): string {
  const r = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
  return /pdftotext version (\S+)/.exec(`${r.stdout}${r.stderr}`)?.[1] ?? '';
}
