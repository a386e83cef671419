#!/usr/bin/env node
// npm run bench: the invoice parse benchmark (packages/invoices/bench), the server benchmark
// (scripts/bench-server.ts), the optimizer benchmark (packages/optimizer/bench) and the dashboard
// benchmark (cost-usage API p95 at 10,000 subscriptions × 24 months on PostgreSQL; it uses
// TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, and skips without one).
// and the export benchmark (a 100,000-row scheduled Excel export: time and peak RSS, same database).
// and the load benchmark (scripts/bench-load.ts: one instance under autocannon, embedded and on
// PostgreSQL, beside a bare Fastify + pg anchor).
// The Finvoice bench (packages/invoices/bench/finvoice.bench.ts): a 2,000-subscription e-invoice
// through the CLI against xmllint --stream, and the CLI's peak RSS.
// The import bench (apps/api/src/modules/invoices/import.bench.ts): a 2,000-subscription invoice
// imported in process on PostgreSQL (same database), as a first month and as the next one.
// The alerts bench (apps/api/src/modules/alerts/alerts.bench.ts): rule evaluation of a 2,000-subscription
// invoice's month after six months of history (goal < 1 s), and evaluated again (nothing new).
// The portfolio bench (apps/api/src/modules/portfolio/portfolio.bench.ts): the provider portfolio's p95 at
// 200 clients × 150 subscriptions × 24 months on PostgreSQL (same database), through autocannon.
// The probes bench (scripts/bench-probes.ts): issue 37's probe findings on the compiled server with
// their goals: a ~19 MB text in a Finvoice refused with the server's RSS growth ≤ +300 MB; another
// tenant's 5-page invoice imported within 10 s beside a big e-invoice's import and follow-up work;
// health answered within 1 s throughout.
// `npm run bench -- parse`, `-- finvoice`, `-- import`, `-- alerts`, `-- server`, `-- optimizer`, `-- dashboard`, `-- portfolio`, `-- export`, `-- load` or `-- probes` runs one.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-runtime.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = {
  parse: 'packages/invoices/bench/parse.bench.ts',
  finvoice: 'packages/invoices/bench/finvoice.bench.ts',
  import: 'apps/api/src/modules/invoices/import.bench.ts',
  alerts: 'apps/api/src/modules/alerts/alerts.bench.ts',
  server: 'scripts/bench-server.ts',
  optimizer: 'packages/optimizer/bench/optimize.bench.ts',
  dashboard: 'apps/api/src/modules/dashboards/cost-usage.bench.ts',
  portfolio: 'apps/api/src/modules/portfolio/portfolio.bench.ts',
  export: 'apps/api/src/modules/report-exports/export.bench.ts',
  load: 'scripts/bench-load.ts',
  probes: 'scripts/bench-probes.ts',
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const w of wanted)
  if (!(w in SECTIONS)) throw new Error(`unknown bench section "${w}" (${Object.keys(SECTIONS).join(', ')})`);
let failed = false;
for (const [name, file] of Object.entries(SECTIONS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`== bench: ${name}`);
  // The export bench measures memory: it runs with the server's memory settings (npm start).
  const server = name === 'export';
  const r = spawnSync(
    process.execPath,
    [...(server ? SERVER_NODE_FLAGS : []), '--import', 'tsx', path.join(ROOT, file)],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
        ...(server ? SERVER_ENV : {}),
        ...process.env,
      },
    },
  );
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
