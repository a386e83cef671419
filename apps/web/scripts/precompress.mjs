// After `vite build`: a brotli (.br) and a gzip (.gz) copy of every text file of dist, written
// beside it, so that the server sends them as they are (@fastify/static's preCompressed) instead of
// compressing on every request or sending them uncompressed. A copy that would not be smaller than
// its file is not written (the server then sends the file itself).
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** What compresses: scripts, styles, the page, texts, pictures written as text. */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.json',
  '.svg',
  '.txt',
  '.map',
  '.webmanifest',
  '.ico',
]);
/** Below this a compressed copy saves less than the response's headers. */
const MIN_BYTES = 1024;

async function filesOf(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // .vite: the build's own manifest, never served
    const file = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(file)));
    else if (COMPRESSIBLE.has(extname(entry.name))) out.push(file);
  }
  return out;
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file of `dist`; answers the totals. */
export async function precompress(dist) {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  const files = await filesOf(dist);
  await Promise.all(
    files.map(async (file) => {
      if ((await stat(file)).size < MIN_BYTES) return;
      const raw = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        }),
        gzip(raw, { level: 9 }),
      ]);
      totals.files++;
      totals.raw += raw.length;
      if (br.length < raw.length) await writeFile(`${file}.br`, br);
      if (gz.length < raw.length) await writeFile(`${file}.gz`, gz);
      totals.br += Math.min(br.length, raw.length);
      totals.gz += Math.min(gz.length, raw.length);
    }),
  );
  return totals;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
  const t = await precompress(dist);
  const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
  process.stdout.write(
    `precompressed ${t.files} files: ${kb(t.raw)} -> brotli ${kb(t.br)}, gzip ${kb(t.gz)}\n`,
  );
}
