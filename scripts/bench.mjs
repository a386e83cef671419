#!/usr/bin/env node
// npm run bench: the invoice parse benchmark (packages/invoices/bench), the server benchmark
// (scripts/bench-server.ts) and the optimizer benchmark (packages/optimizer/bench).
// `npm run bench -- parse`, `-- server` or `-- optimizer` runs one of them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = {
  parse: 'packages/invoices/bench/parse.bench.ts',
  server: 'scripts/bench-server.ts',
  optimizer: 'packages/optimizer/bench/optimize.bench.ts',
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
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
