#!/usr/bin/env node
// npm run bench: the invoice parse benchmark (packages/invoices/bench) and the server benchmark
// (scripts/bench-server.ts). `npm run bench -- parse` or `-- server` runs one of them.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECTIONS = {
  parse: 'packages/invoices/bench/parse.bench.ts',
  server: 'scripts/bench-server.ts',
};
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const w of wanted) if (!(w in SECTIONS)) throw new Error(`unknown bench section "${w}" (parse, server)`);
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
