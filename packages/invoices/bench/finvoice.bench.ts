/**
 * `npm run bench -- finvoice`: a 6,000-subscription Finvoice 3.0 file (Elisa, about 27 MB; UTF-8, and
 * ISO-8859-15 behind a SOAP envelope, which xmllint cannot read as one document) and a Peppol BIS 3
 * (UBL) invoice of the same subscriptions and about the same size (issue 38) parsed and mapped end to end by the CLI
 * (`node packages/invoices/bin/kulu-invoice.mjs parse FILE`, what `npm run invoice -- parse FILE`
 * runs) against `xmllint --stream --noout FILE` (Debian libxml2-utils), run in turn and compared pair
 * by pair: the ratio is the median of the per-pair ratios. Goals: at most 3× xmllint, and the CLI's
 * peak RSS at most 150 MB (measured with /usr/bin/time when it is installed). Also the in-process
 * parse time (parseFinvoice, median).
 *
 * Env: BENCH_RUNS (default 5), BENCH_FINVOICE_SUBSCRIPTIONS (default 6000).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseInvoiceFile } from '../src/file.js';
import { generateFinvoice } from '../src/generator/finvoice.js';
import { generatePeppol } from '../src/generator/peppol.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SUBSCRIPTIONS = Number(process.env.BENCH_FINVOICE_SUBSCRIPTIONS ?? 6000);
const CLI = fileURLToPath(new URL('../bin/kulu-invoice.mjs', import.meta.url));
const TIME = '/usr/bin/time';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Wall time of one process run in ms (and its peak RSS in MB when /usr/bin/time is there). */
function run(cmd: string, args: string[]): { ms: number; rssMb: number | null } {
  const timed = existsSync(TIME);
  const t0 = performance.now();
  const r = timed
    ? spawnSync(TIME, ['-f', 'maxrss=%M', cmd, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        encoding: 'utf8',
      })
    : spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  const m = /maxrss=(\d+)/.exec(r.stderr ?? '');
  return { ms, rssMb: m ? Math.round(Number(m[1]) / 1024) : null };
}

const hasXmllint = !spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).error;
const dir = mkdtempSync(join(tmpdir(), 'kulu-bench-finvoice-'));
const rows: Record<string, string | number>[] = [];
try {
  for (const variant of [
    { name: 'Finvoice UTF-8', charset: 'UTF-8' as const, envelope: false, peppol: false },
    {
      name: 'Finvoice ISO-8859-15 + envelope',
      charset: 'ISO-8859-15' as const,
      envelope: true,
      peppol: false,
    },
    { name: 'Peppol BIS 3 (UBL)', charset: 'UTF-8' as const, envelope: false, peppol: true },
  ]) {
    const common = { operator: 'elisa', subscriptions: SUBSCRIPTIONS, seed: 500 };
    const g = variant.peppol
      ? generatePeppol(common)
      : generateFinvoice({ ...common, charset: variant.charset, envelope: variant.envelope });
    const file = join(dir, `elisa-${SUBSCRIPTIONS}-${variant.peppol ? 'peppol' : variant.charset}.xml`);
    writeFileSync(file, g.xml);
    await parseInvoiceFile(g.xml); // warm-up
    const inProcess: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await parseInvoiceFile(g.xml);
      inProcess.push(performance.now() - t0);
    }
    const row: Record<string, string | number> = {
      file: variant.name,
      subscriptions: SUBSCRIPTIONS,
      rows: g.expected.subscriptions.reduce((n, s) => n + s.lines.length, 0) + g.expected.otherLines.length,
      MB: Number((g.xml.length / 1024 / 1024).toFixed(1)),
      'parse ms (in process)': Math.round(median(inProcess)),
    };
    run(process.execPath, [CLI, 'parse', file]); // warm-up; also compiles the CLI when sources changed
    const cli: number[] = [];
    const rss: number[] = [];
    const lint: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const c = run(process.execPath, [CLI, 'parse', file]);
      cli.push(c.ms);
      if (c.rssMb !== null) rss.push(c.rssMb);
      // xmllint reads one document: the enveloped file (two documents) is timed for the CLI alone
      if (hasXmllint && !variant.envelope) lint.push(run('xmllint', ['--stream', '--noout', file]).ms);
    }
    row['CLI ms'] = Math.round(median(cli));
    row['CLI peak RSS MB'] = rss.length ? Math.max(...rss) : 'n/a';
    if (lint.length) {
      row['xmllint --stream ms'] = Math.round(median(lint));
      row['CLI / xmllint'] = `${median(cli.map((t, i) => t / lint[i])).toFixed(2)}×`;
    }
    rows.push(row);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `E-invoice parse (Finvoice, Peppol), generated Elisa invoices, median of ${RUNS} runs, Node ${process.version}`,
);
console.table(rows);
for (const row of rows) {
  console.log(
    `e-invoice ratio vs xmllint --stream at ${row.subscriptions} subscriptions (${row.file}, ${row.MB} MB): ` +
      `${row['CLI / xmllint'] ?? (hasXmllint ? 'n/a (two documents)' : 'n/a (apt-get install libxml2-utils)')} end to end, ` +
      `CLI peak RSS ${row['CLI peak RSS MB']} MB (goals: ≤ 3×, ≤ 150 MB)`,
  );
}
