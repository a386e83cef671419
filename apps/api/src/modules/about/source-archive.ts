import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/**
 * The Corresponding Source that AGPL §13 asks Kulu to offer its network users: the files of the
 * checkout the server runs from, packed as a .tar.gz. Only what the project itself writes goes in
 * (no node_modules, no builds, no data directory, secrets or .env files): the lock file names every
 * dependency at its version, and those are published sources already.
 */
const TOP_LEVEL = [
  '.ci',
  '.gitignore',
  '.prettierignore',
  '.prettierrc.json',
  'LICENSE',
  'README.md',
  'apps',
  'docs',
  'eslint.config.js',
  'package-lock.json',
  'package.json',
  'packages',
  'scripts',
  'tsconfig.base.json',
  'vitest.config.ts',
];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'screenshots', 'data', 'coverage']);

/** The checkout's root: the nearest folder above `from` whose package.json is the workspace root. */
export function findSourceRoot(from = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'kulu') return dir;
    } catch {
      // no package.json here
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** Paths (relative, with `/`) of the files that make up the source, sorted. */
export function sourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(abs);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) {
        if (SKIPPED_DIRS.has(name) || name.startsWith('.env') || name === '.git') continue;
        walk(rel ? `${rel}/${name}` : name);
      }
    } else if (stat.isFile()) out.push(rel);
  };
  for (const entry of TOP_LEVEL) walk(entry);
  return out;
}

/** One 512-byte ustar header; names longer than 100 bytes use the 155-byte prefix field. */
function tarHeader(name: string, size: number, mtime: number): Buffer {
  const h = Buffer.alloc(512);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut < 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155) {
      throw new Error(`path too long for a tar header: ${name}`);
    }
  }
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, '0') + '\0';
  h.write(base, 0, 100);
  h.write(octal(0o644, 8), 100);
  h.write(octal(0, 8), 108);
  h.write(octal(0, 8), 116);
  h.write(octal(size, 12), 124);
  h.write(octal(Math.floor(mtime / 1000), 12), 136);
  h.write('        ', 148); // checksum field counts as spaces while summing
  h.write('0', 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write(prefix, 345, 155);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148);
  return h;
}

/** The whole source as a gzip-compressed tar, every entry under `kulu/`. */
export function sourceArchive(root: string): Buffer {
  const parts: Buffer[] = [];
  for (const rel of sourceFiles(root)) {
    const abs = path.join(root, rel);
    const body = fs.readFileSync(abs);
    parts.push(tarHeader(`kulu/${rel}`, body.length, fs.statSync(abs).mtimeMs));
    parts.push(body);
    const pad = (512 - (body.length % 512)) % 512;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
