#!/usr/bin/env node
// Builds what `npm start` runs, each part only when its sources changed since its last build:
//   api: apps/api/src/server.ts and modules/invoices/pipeline/parse-child.ts bundled by esbuild into apps/api/dist/*.js
//        (the workspace packages @kulu/shared and @kulu/invoices inlined; node_modules packages stay
//        imports), each worker thread's module bundled on its own beside them, plus the SQL
//        migrations and files the code opens beside itself;
//   web: apps/web/dist by Vite.
// A part is stale when the hash of its sources differs from the stamp written after its last
// build, or its output is missing. Usage: node scripts/build.mjs [api] [web] [--force]
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeSourceManifest } from './source-manifest.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const API_DIST = path.join(ROOT, 'apps/api/dist');
export const SERVER_JS = path.join(API_DIST, 'server.js');
const STAMPS = path.join(ROOT, 'node_modules/.cache/kulu-build');

/** Sources of each part (files or folders, relative to the root) and the file proving a build. */
export const TARGETS = {
  api: {
    sources: [
      'apps/api/src',
      'apps/api/package.json',
      'packages/shared/src',
      'packages/shared/package.json',
      'packages/invoices/src',
      'packages/invoices/package.json',
      'packages/optimizer/src',
      'packages/optimizer/package.json',
      'package-lock.json',
      'scripts/build.mjs',
      'scripts/source-manifest.mjs',
    ],
    output: 'apps/api/dist/server.js',
    build: buildApi,
  },
  web: {
    sources: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'apps/web/tsconfig.json',
      'packages/shared/src',
      'packages/shared/package.json',
      'package-lock.json',
    ],
    output: 'apps/web/dist/index.html',
    build: buildWeb,
  },
};

/** Test files never reach a build: editing one does not make a part stale. */
const IGNORED = /(^|\/)(node_modules|dist|e2e)(\/|$)|\.test\.tsx?$|(^|\/)\./;

function listFiles(rel, out) {
  const abs = path.join(ROOT, rel);
  let stat;
  try {
    stat = fs.statSync(abs);
  } catch {
    return;
  }
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(abs).sort()) {
      const child = `${rel}/${name}`;
      if (!IGNORED.test(child)) listFiles(child, out);
    }
  } else out.push(rel);
}

/** SHA-256 over the paths and contents of a part's sources. */
export function sourceHash(name) {
  const files = [];
  for (const s of TARGETS[name].sources) listFiles(s, files);
  const h = crypto.createHash('sha256');
  for (const f of files) {
    h.update(`${f}\0`);
    h.update(fs.readFileSync(path.join(ROOT, f)));
    h.update('\0');
  }
  return h.digest('hex');
}

const stampFile = (name) => path.join(STAMPS, `${name}.sha256`);

/** The parts whose output is missing or whose sources changed since their last build. */
export function staleTargets(names = Object.keys(TARGETS)) {
  return names.filter((name) => {
    if (!fs.existsSync(path.join(ROOT, TARGETS[name].output))) return true;
    try {
      return fs.readFileSync(stampFile(name), 'utf8').trim() !== sourceHash(name);
    } catch {
      return true;
    }
  });
}

/** Builds one part and records the hash of the sources it was built from. */
export async function buildTarget(name) {
  const hash = sourceHash(name);
  const started = Date.now();
  await TARGETS[name].build();
  fs.mkdirSync(STAMPS, { recursive: true });
  fs.writeFileSync(stampFile(name), `${hash}\n`);
  console.log(`build: ${name} built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function buildWeb() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // A production build whoever starts it: the browser tests' setup (scripts/start.mjs) runs under
  // vitest's NODE_ENV=test, which made Vite bundle React's development builds (the login page at
  // 261 KB gzip instead of 193 KB, over its budget).
  const r = spawnSync(npm, ['run', 'build', '-w', '@kulu/web'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`the web build failed (exit ${r.status ?? r.signal})`);
}

/**
 * Files the code opens with `new URL('./name', import.meta.url)`: a JavaScript module there is a
 * worker's entry (new Worker(url)) and is bundled on its own under that name (what it imports comes
 * with it); any other file is copied beside the bundle.
 */
const SIBLING_URL = /new URL\(\s*['"]\.\/([\w.-]+)['"]\s*,\s*import\.meta\.url\s*\)/g;
const WORKER_MODULE = /\.m?js$/;

/** Packages from node_modules stay imports (native addons, WebAssembly files and their own relative
 * files resolve as installed); the workspace packages (TypeScript) are inlined. */
const externalNodeModules = {
  name: 'external-node-modules',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@kulu/') || args.path.startsWith('node:')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** What every bundle of the API shares: ESM for node 20, node_modules kept as imports. */
const BUNDLE_OPTIONS = {
  absWorkingDir: ROOT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
  legalComments: 'none',
  // A CommonJS `require` for code that needs one (esbuild's ESM output has none).
  banner: {
    js: "import { createRequire as __kuluCreateRequire } from 'node:module'; const require = __kuluCreateRequire(import.meta.url);",
  },
  plugins: [externalNodeModules],
};

/** The files a bundle's own (non-node_modules) inputs open beside themselves: [source, name]. */
function siblingsOf(metafile) {
  const found = [];
  for (const input of Object.keys(metafile.inputs)) {
    if (input.includes('node_modules/')) continue;
    const file = path.join(ROOT, input);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(SIBLING_URL)) {
      const from = path.join(path.dirname(file), m[1]);
      if (fs.existsSync(from) && !/\.[cm]?tsx?$/.test(from)) found.push([from, m[1]]);
    }
  }
  return found;
}

async function buildApi() {
  const esbuild = await import('esbuild');
  const tmp = `${API_DIST}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const result = await esbuild.build({
    ...BUNDLE_OPTIONS,
    entryPoints: {
      server: 'apps/api/src/server.ts',
      // Started by modules/invoices/pipeline/parse-runner.ts as `node parse-child.js` beside the server bundle.
      'parse-child': 'apps/api/src/modules/invoices/pipeline/parse-child.ts',
      // Started by lib/follow-up.ts as a worker thread from follow-up-worker.js beside the bundle.
      'follow-up-worker': 'apps/api/src/jobs/follow-up-worker.ts',
    },
    outdir: tmp,
    // Code loaded on demand (import()) goes to its own chunk with its own package imports, so the
    // server does not load, say, the PDF generator of the demo invoices at start. Chunks sit beside
    // the entries: a path a module finds from its import.meta.url (migrations, parse-child.js, the
    // web build) is then the same whichever file the module lands in.
    splitting: true,
    chunkNames: '[name]-[hash]',
  });
  // The SQL migrations: db/client.ts looks for them beside itself (import.meta.url).
  fs.cpSync(path.join(ROOT, 'apps/api/src/db/migrations'), path.join(tmp, 'migrations'), { recursive: true });
  // Workers (and what they open beside themselves in turn) and other files the code opens.
  const todo = siblingsOf(result.metafile);
  const done = new Set();
  while (todo.length) {
    const [from, name] = todo.shift();
    if (done.has(name)) continue;
    done.add(name);
    if (!WORKER_MODULE.test(name)) {
      fs.copyFileSync(from, path.join(tmp, name));
      continue;
    }
    // A worker starts from its own file: one bundle with everything it imports, no shared chunks.
    const worker = await esbuild.build({
      ...BUNDLE_OPTIONS,
      entryPoints: [from],
      outfile: path.join(tmp, name),
    });
    todo.push(...siblingsOf(worker.metafile));
  }
  // What /api/source packs when the server runs without the git index (source-archive.ts).
  writeSourceManifest(ROOT, path.join(tmp, 'source-files.json'));
  fs.rmSync(API_DIST, { recursive: true, force: true });
  fs.renameSync(tmp, API_DIST);
}

async function main() {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const names = args.filter((a) => !a.startsWith('--'));
  for (const n of names) if (!(n in TARGETS)) throw new Error(`unknown build target "${n}" (api, web)`);
  const wanted = names.length ? names : Object.keys(TARGETS);
  const todo = force ? wanted : staleTargets(wanted);
  if (!todo.length) console.log(`build: ${wanted.join(', ')} up to date`);
  for (const name of todo) await buildTarget(name);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
