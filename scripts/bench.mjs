#!/usr/bin/env node
// npm run bench: the invoice parse benchmark (packages/invoices/bench), the server benchmark
// (scripts/bench-server.ts), the optimizer benchmark (packages/optimizer/bench) and the dashboard
// benchmark (cost-usage API p95 at 10,000 subscriptions × 24 months on PostgreSQL; it uses
// TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test, and skips without one).
// `npm run bench -- parse`, `-- server`, `-- optimizer` or `-- dashboard` runs one of them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = {
  parse: 'packages/invoices/bench/parse.bench.ts',
  server: 'scripts/bench-server.ts',
  optimizer: 'packages/optimizer/bench/optimize.bench.ts',
  dashboard: 'apps/api/src/modules/dashboards/cost-usage.bench.ts',
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const w of wanted)
  if (!(w in SECTIONS)) throw new Error(`unknown bench section "${w}" (${Object.keys(SECTIONS).join(', ')})`);
let failed = false;
for (const [name, file] of Object.entries(SECTIONS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  console.log(`== bench: ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, file)], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', ...process.env },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
