/**
 * `npm run bench`: parse throughput (pages/s, subscriptions/s) on a generated 500-subscription invoice
 * of each operator, next to poppler's `pdftotext -layout` on the same file when it is installed
 * (apt package poppler-utils). pdftotext only extracts text; the parser extracts positioned text with
 * pdf.js, rebuilds lines, parses and reconciles.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateInvoice } from '../src/generator/generate.js';
import { extractText } from '../src/text/extract.js';
import { parseInvoice } from '../src/registry.js';

const SUBSCRIPTIONS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

function hasPdftotext(): boolean {
  const r = spawnSync('pdftotext', ['-v'], { stdio: 'ignore' });
  return !r.error;
}

async function median(runs: number, fn: () => unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const poppler = hasPdftotext();
const dir = mkdtempSync(join(tmpdir(), 'kulu-bench-'));
const rows: Record<string, string | number>[] = [];
try {
  for (const operator of ['elisa', 'telia', 'dna']) {
    const generated = await generateInvoice({
      operator,
      subscriptions: SUBSCRIPTIONS,
      seed: 500,
      pageSize: 'A4',
      font: 'Helvetica',
    });
    const file = join(dir, `${operator}.pdf`);
    writeFileSync(file, generated.pdf);
    await parseInvoice(generated.pdf); // warm-up (JIT, pdf.js fake worker)
    const parseMs = await median(RUNS, () => parseInvoice(generated.pdf));
    const extractMs = await median(RUNS, () => extractText(generated.pdf));
    const row: Record<string, string | number> = {
      operator,
      pages: generated.pages,
      subscriptions: SUBSCRIPTIONS,
      KB: Math.round(generated.pdf.length / 1024),
      'parse ms': Math.round(parseMs),
      'pages/s': Math.round((generated.pages / parseMs) * 1000),
      'subscriptions/s': Math.round((SUBSCRIPTIONS / parseMs) * 1000),
      'of which pdf.js text ms': Math.round(extractMs),
    };
    if (poppler) {
      const popplerMs = await median(RUNS, () =>
        execFileSync('pdftotext', ['-layout', file, '-'], { maxBuffer: 1 << 28 }),
      );
      row['pdftotext -layout ms'] = Math.round(popplerMs);
      row['pdftotext pages/s'] = Math.round((generated.pages / popplerMs) * 1000);
    }
    rows.push(row);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `Parse throughput, ${SUBSCRIPTIONS}-subscription generated invoices (A4, Helvetica), median of ${RUNS} runs, Node ${process.version}`,
);
console.table(rows);
if (!poppler)
  console.log(
    'pdftotext not found: install poppler-utils for the comparison column (apt-get install poppler-utils).',
  );
