#!/usr/bin/env node
// `npm run invoice -- …` (see src/cli.ts): runs the CLI compiled to plain JavaScript under
// packages/invoices/dist, so a run pays neither a TypeScript loader's start-up (tsx: a second Node
// process, about 0.3 s) nor a transform. The compiled copy is rebuilt (esbuild, one file per source
// file, about 0.1 s) whenever a source file is newer than it; dist/ is not committed.
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const stamp = join(dist, '.built');

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    if (/\.test\.ts$|^test-helpers\.ts$|\.d\.mts$/.test(entry.name)) return [];
    return /\.(ts|mjs)$/.test(entry.name) ? [path] : [];
  });
}

function newestMtime(files) {
  return Math.max(...files.map((f) => statSync(f).mtimeMs), statSync(join(root, 'package.json')).mtimeMs);
}

function isFresh(files) {
  try {
    return statSync(stamp).mtimeMs >= newestMtime(files);
  } catch {
    return false;
  }
}

async function build(files) {
  const { transform } = await import('esbuild');
  const tmp = `${dist}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  for (const file of files) {
    const rel = relative(src, file);
    const out = join(tmp, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    if (file.endsWith('.mjs')) {
      copyFileSync(file, out);
      continue;
    }
    const { code } = await transform(readFileSync(file, 'utf8'), {
      loader: 'ts',
      format: 'esm',
      target: 'node20',
      sourcefile: file,
    });
    writeFileSync(out, code);
  }
  writeFileSync(join(tmp, '.built'), '');
  rmSync(dist, { recursive: true, force: true });
  try {
    renameSync(tmp, dist);
  } catch {
    // Another run built it at the same moment: use theirs.
    rmSync(tmp, { recursive: true, force: true });
  }
}

const files = sources(src);
if (!isFresh(files)) await build(files);
await import(pathToFileURL(join(dist, 'cli.js')).href);
