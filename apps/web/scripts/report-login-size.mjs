// After `vite build`: the gzip size of the JavaScript the login page loads, that is the entry
// chunk with its static imports plus the login page's lazy chunk with its static imports
// plus the English texts and shared messages (from dist/.vite/manifest.json). Fails the build when it is over the budget.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 200 * 1024;
const LOGIN_PAGE_SRC = 'src/features/auth/login-page.tsx';
/** The texts of one language (English, the default) load before the first render. */
const LOCALE_SRC = 'src/locales/en.json';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry chunk in the vite manifest');
if (!manifest[LOGIN_PAGE_SRC])
  throw new Error(`${LOGIN_PAGE_SRC} is not a chunk of its own (lazy import lost?)`);

/** The chunk and everything it imports statically. */
function collect(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return files;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(imported, files);
  return files;
}

if (!manifest[LOCALE_SRC]) throw new Error(`${LOCALE_SRC} is not a chunk of its own`);
/** @kulu/shared's messages of that language, loaded beside it (shared-texts-plugin.ts). */
const sharedTextsKey = Object.keys(manifest).find((k) => k.endsWith('virtual:shared-texts/en'));
if (!sharedTextsKey) throw new Error('the English shared texts are not a chunk of their own');
const files = collect(sharedTextsKey, collect(LOCALE_SRC, collect(LOGIN_PAGE_SRC, collect(entryKey))));
const rows = [...files]
  .filter((f) => f.endsWith('.js'))
  .map((file) => {
    const raw = readFileSync(join(dist, file));
    return { file, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const total = rows.reduce((s, r) => s + r.gzip, 0);
const print = (line) => process.stdout.write(`${line}\n`);
print('\nJavaScript loaded by the login page:');
for (const r of rows)
  print(`  ${r.file.padEnd(48)} ${kb(r.raw).padStart(10)}  gzip ${kb(r.gzip).padStart(9)}`);
print(
  `  ${'total'.padEnd(48)} ${''.padStart(10)}  gzip ${kb(total).padStart(9)}  (budget ${kb(BUDGET_BYTES)})\n`,
);

if (total > BUDGET_BYTES) {
  process.stderr.write(`Login page JavaScript is ${kb(total)} gzip, over the ${kb(BUDGET_BYTES)} budget.\n`);
  process.exit(1);
}
