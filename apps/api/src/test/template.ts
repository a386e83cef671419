// The test suites' template database (issue 25, docs/decisions/0021): every migration and the
// seed run once per run, and each test app starts from a copy. On PostgreSQL the template is a
// database marked IS_TEMPLATE that `CREATE DATABASE … TEMPLATE` copies; on PGlite it is a tarball
// of the data directory that PGlite starts from (`loadDataDir`).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { count, eq } from 'drizzle-orm';
import { loadConfig, type Config } from '../config.js';
import { MIGRATIONS_DIR, openDatabase, type Database } from '../db/client.js';
import { bootstrap, SEED_SETTINGS } from '../db/seed/bootstrap.js';
import { createDeps } from '../deps.js';
import { invoices } from '../db/schema/index.js';
import { demoSeed, startDemo } from '../demo/index.js';
import { QUEUE, startJobs, stopJobs } from '../jobs/index.js';
import { JobQueue } from '../lib/queue.js';
import type { Deps } from '../types.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the template is made of: the migrations, and the code that seeds it (the seed, the demo
 * organisation, the schema the seed writes through, the password hashing, this file).
 */
export const TEMPLATE_SOURCES = [
  MIGRATIONS_DIR,
  path.join(SRC, 'db', 'seed'),
  path.join(SRC, 'db', 'schema'),
  path.join(SRC, 'demo'),
  path.join(SRC, 'lib', 'passwords.ts'),
  fileURLToPath(import.meta.url),
];

/**
 * What the demo template is made of besides: every line of the API and the packages the demo import
 * runs (the invoice generator and parser, the jobs, the optimizer), tests excluded.
 */
export const DEMO_TEMPLATE_SOURCES = [
  ...TEMPLATE_SOURCES,
  SRC,
  ...['invoices', 'optimizer', 'shared'].map((p) => path.resolve(SRC, '../../../packages', p, 'src')),
];

/** The configuration the template is seeded with; a test app whose SEED_SETTINGS differ seeds its own. */
const TEMPLATE_ENV = { NODE_ENV: 'test', LOG_LEVEL: 'silent', DEMO_DATA: 'true' } as const;

const templateConfig = (dataDir: string): Config => loadConfig({ ...TEMPLATE_ENV, DATA_DIR: dataDir });

/** Does a test app with this configuration seed what the template holds? */
export function seedsLikeTemplate(config: Config): boolean {
  if (process.env.TEST_DB_TEMPLATE === 'off') return false;
  const tpl = templateConfig(os.tmpdir());
  return SEED_SETTINGS.every((k) => config[k] === tpl[k]);
}

function addFiles(hash: crypto.Hash, root: string, at: string): void {
  const stat = fs.statSync(at);
  if (stat.isDirectory()) {
    for (const name of fs.readdirSync(at).sort()) addFiles(hash, root, path.join(at, name));
    return;
  }
  if (at.endsWith('.test.ts')) return;
  hash.update(`${path.relative(root, at)}\0`);
  hash.update(fs.readFileSync(at));
  hash.update('\0');
}

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The template's name: the UTC day it is seeded on (the seed writes dates from the clock: the demo
 * contracts' years, their activation time) and a hash of its sources and engine (a PGlite tarball
 * is only read by the PGlite that wrote it). A changed migration or seed never reuses a template.
 */
export function templateKey(
  opts: { sources?: string[]; day?: Date; engine?: 'postgres' | 'pglite'; variant?: string } = {},
): string {
  const engine = opts.engine ?? (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');
  const hash = crypto.createHash('sha256');
  hash.update(engine === 'pglite' ? `pglite@${pgliteVersion()}\0` : 'postgres\0');
  for (const source of opts.sources ?? TEMPLATE_SOURCES) addFiles(hash, path.dirname(source), source);
  const day = (opts.day ?? new Date()).toISOString().slice(0, 10).replace(/-/g, '');
  const key = `${day}_${hash.digest('hex').slice(0, 16)}${opts.variant ? `_${opts.variant}` : ''}`;
  // On PostgreSQL a run's templates are its own, dropped at its end (test/global-setup.ts).
  const run = process.env.KULU_TEST_RUN;
  return engine === 'postgres' && run && /^[0-9a-f]{1,16}$/.test(run) ? `${key}_${run}` : key;
}

/** Migrates an empty database and seeds it as a default test app would. */
export async function seedTemplate(database: Database): Promise<void> {
  await database.migrate();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-template-'));
  try {
    await bootstrap(createDeps(templateConfig(dataDir), database), demoSeed);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface Template {
  key: string;
  /** The template database's name (PostgreSQL) or the tarball's path (PGlite). */
  source: string;
  /** Did this call build it (false: it was there, built by this or another process). */
  built: boolean;
}

/**
 * The template of `key`, built by `build` into an empty database if no process has built it yet.
 * Parallel vitest workers build it once: on PostgreSQL under an advisory lock of its name, on
 * PGlite under a lock file.
 */
export function ensureTemplate(key: string, build: (database: Database) => Promise<void>): Promise<Template> {
  const base = process.env.TEST_DATABASE_URL;
  return base ? ensurePgTemplate(base, key, build) : ensurePgliteTemplate(key, build);
}

/** Opens a copy of the template: a new database on the server of TEST_DATABASE_URL, or a PGlite. */
export async function cloneTemplate(
  template: Template,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base)
    return { database: await openDatabase({ loadDataDir: tarball(template.source) }), drop: async () => {} };
  const name = `kulu_test_${crypto.randomBytes(6).toString('hex')}`;
  await withAdmin(base, async (admin) => {
    // The template's builder may still be closing its connections (none are opened later).
    await retryInUse(() => admin.query(`create database ${name} template ${template.source}`));
  });
  return {
    database: await openDatabase({ url: databaseUrl(base, name) }),
    drop: () => dropDatabase(base, name),
  };
}

/** Removes a template (the tests of this module; the others are kept, see prunePgTemplates). */
export async function dropTemplate(template: Template): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    fs.rmSync(template.source, { force: true });
    tarballs.delete(template.source);
    return;
  }
  await withAdmin(base, (admin) => admin.query(`alter database ${template.source} with is_template false`));
  await dropDatabase(base, template.source);
}

/**
 * A demo install's first start on a seeded database, as server.ts runs it: the demo-invoices worker
 * and the parse jobs import the 12 months of every demo client and operator (the simulated portal
 * left out: its client's invoices come from the demo-invoices queue, the same ones), until no job is
 * queued and no invoice is in progress. Returns the invoices' final states.
 */
export async function importDemo(deps: Deps, timeoutMs = 480_000): Promise<string[]> {
  const demo = await startDemo(deps, { portal: false });
  try {
    await startJobs(deps, { schedules: false, extensions: [demo.jobs] });
    const { db } = deps.database;
    const until = Date.now() + timeoutMs;
    for (;;) {
      const queued =
        (await deps.jobs.pending(QUEUE.demoInvoices)) +
        (await deps.jobs.pending(QUEUE.parseInvoice)) +
        (await deps.jobs.pending(QUEUE.evaluateAlerts));
      const [{ busy }] = await db
        .select({ busy: count() })
        .from(invoices)
        .where(eq(invoices.uploadState, 'in_progress'));
      if (queued === 0 && busy === 0) break;
      if (Date.now() > until)
        throw new Error(`demo import: ${queued} jobs queued, ${busy} invoices in progress`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const done = await db
      .select({ state: invoices.uploadState, error: invoices.errorMessage })
      .from(invoices);
    return done.map((i) => (i.error ? `${i.state}: ${i.error}` : i.state));
  } finally {
    await stopJobs(deps);
    await demo.close();
  }
}

/** The seed and then the demo import (importDemo), in the template's configuration. */
export async function seedDemoTemplate(database: Database): Promise<void> {
  await seedTemplate(database);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-template-'));
  try {
    // A template is kept for the day: one whose import lost an invoice (a parse that timed out on a
    // loaded machine) must not be, or every clone would fail the same way.
    // Retries come quickly, as in every test app (test/helpers.ts).
    const jobs = new JobQueue(database, { retryLimit: 1, retryDelay: 1, retryBackoff: false });
    // A parse's time limit scales with its file (5 s + 100 s per MB): a small demo PDF on a loaded
    // 2-core machine can pass it. The limits are tested where they are the subject, not here.
    const config = { ...templateConfig(dataDir), PARSE_TIMEOUT_BASE_SECONDS: 60 };
    const states = await importDemo(createDeps(config, database, { jobs }));
    if (!states.length || states.some((s) => s !== 'uploaded'))
      throw new Error(`demo template: the import ended with invoices ${JSON.stringify(states)}`);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const built = new Map<string, Promise<Template>>();

function once(key: string, build: (database: Database) => Promise<void>): Promise<Template> {
  let template = built.get(key);
  if (!template) {
    template = ensureTemplate(key, build).catch((e: unknown) => {
      built.delete(key);
      throw e;
    });
    built.set(key, template);
  }
  return template;
}

/** The template of the default test app, built once per key and process. */
export const seededTemplate = (): Promise<Template> => once(templateKey(), seedTemplate);

/**
 * The demo template: the default template after a demo install's first start has imported its
 * invoices (seedDemoTemplate). Built once per run and engine (PGlite: once per day and sources) and
 * cloned by every test that reads the imported demo, instead of importing it again (decision 0022).
 * Its uploaded files are not kept (the build's DATA_DIR is removed): the clones read rows only.
 */
export const demoTemplate = (): Promise<Template> =>
  once(templateKey({ sources: DEMO_TEMPLATE_SOURCES, variant: 'demo' }), seedDemoTemplate);

// --- PostgreSQL ---------------------------------------------------------------------------

export const databaseUrl = (base: string, name: string): string => {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
};

async function withAdmin<T>(base: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const inUse = (e: unknown) => (e as { code?: string }).code === '55006';

async function retryInUse<T>(fn: () => Promise<T>, tries = 40): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (!inUse(e) || i >= tries) throw e;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Drops a database, letting connections still closing go first; forced only as the last resort. */
export async function dropDatabase(base: string, name: string): Promise<void> {
  await withAdmin(base, async (c) => {
    try {
      await retryInUse(() => c.query(`drop database if exists ${name}`));
    } catch (e) {
      if (!inUse(e)) throw e;
      await c.query(`drop database if exists ${name} with (force)`);
    }
  });
}

const TEMPLATE_PREFIX = 'kulu_tpl_';

async function ensurePgTemplate(
  base: string,
  key: string,
  build: (database: Database) => Promise<void>,
): Promise<Template> {
  const name = `${TEMPLATE_PREFIX}${key}`;
  return withAdmin(base, async (admin) => {
    // Held by this session until it ends: the other workers wait here, then find it built.
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const { rows } = await admin.query<{ datistemplate: boolean }>(
      'select datistemplate from pg_database where datname = $1',
      [name],
    );
    if (rows[0]?.datistemplate) return { key, source: name, built: false };
    // Marked a template only when complete: an unmarked one is a build whose process died.
    if (rows.length) await admin.query(`drop database ${name} with (force)`);
    await admin.query(`create database ${name}`);
    try {
      const database = await openDatabase({ url: databaseUrl(base, name) });
      try {
        await build(database);
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${name} with is_template true`);
    } catch (e) {
      await admin.query(`drop database if exists ${name} with (force)`);
      throw e;
    }
    await prunePgTemplates(admin, key);
    return { key, source: name, built: true };
  });
}

/** The day a template key was seeded on (its first part). */
const keyDay = (key: string): string => key.slice(0, 8);

/** Is a template of this day older than yesterday (no run can still be cloning it)? */
function stale(day: string, today: string): boolean {
  const y = new Date(`${today.slice(0, 4)}-${today.slice(4, 6)}-${today.slice(6, 8)}T00:00:00Z`);
  y.setUTCDate(y.getUTCDate() - 1);
  return /^\d{8}$/.test(day) && day < y.toISOString().slice(0, 10).replace(/-/g, '');
}

/**
 * Drops the templates seeded before yesterday. Templates of today and yesterday stay: other
 * checkouts with other migrations may be running against the same server right now.
 */
async function prunePgTemplates(admin: pg.Client, key: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>(
    "select datname from pg_database where datistemplate and datname like 'kulu\\_tpl\\_%'",
  );
  for (const { datname } of rows) {
    if (!stale(keyDay(datname.slice(TEMPLATE_PREFIX.length)), keyDay(key))) continue;
    try {
      await admin.query(`alter database ${datname} with is_template false`);
      await admin.query(`drop database ${datname}`);
    } catch {
      // In use by a run after all: the next build prunes it.
    }
  }
}

// --- PGlite -------------------------------------------------------------------------------

/** Where the PGlite tarballs are kept (TEST_TEMPLATE_DIR, or under the system's temp directory). */
export const templateDir = (): string =>
  process.env.TEST_TEMPLATE_DIR ?? path.join(os.tmpdir(), 'kulu-test-templates');

const tarballs = new Map<string, Blob>();

/** The tarball, read once per process (each PGlite copies it into its own memory). */
function tarball(file: string): Blob {
  let blob = tarballs.get(file);
  if (!blob) {
    blob = new Blob([fs.readFileSync(file)]);
    tarballs.set(file, blob);
  }
  return blob;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid in a lock file (0 while it is being written), undefined when there is none. */
function readLock(lock: string): number | undefined {
  try {
    return Number(fs.readFileSync(lock, 'utf8'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

const mtime = (file: string): number => {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
};

/** Takes the lock file (its content the holder's pid); a lock of a dead process is taken over. */
async function lockFile(lock: string, done: () => boolean): Promise<boolean> {
  const until = Date.now() + 10 * 60_000;
  for (;;) {
    if (done()) return false;
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = readLock(lock);
    if (holder === undefined) continue; // released between the two calls
    // A dead holder's lock is stale; so is one left empty (its holder died between open and write).
    const empty = !holder && Date.now() - mtime(lock) > 10_000;
    if (empty || (holder && !alive(holder))) fs.rmSync(lock, { force: true });
    if (Date.now() > until) throw new Error(`template lock ${lock} held by ${holder} for 10 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function ensurePgliteTemplate(
  key: string,
  build: (database: Database) => Promise<void>,
): Promise<Template> {
  const dir = templateDir();
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${key}.tar`);
  const lock = `${file}.lock`;
  if (!(await lockFile(lock, () => fs.existsSync(file)))) return { key, source: file, built: false };
  try {
    if (fs.existsSync(file)) return { key, source: file, built: false };
    const database = await openDatabase({});
    let dump: Blob;
    try {
      await build(database);
      dump = await database.dumpDataDir!();
    } finally {
      await database.close();
    }
    // Written whole under another name first: a reader never sees half a tarball.
    const partial = `${file}.${process.pid}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith('.tar') && stale(keyDay(name), keyDay(key)))
        fs.rmSync(path.join(dir, name), { force: true });
    }
    return { key, source: file, built: true };
  } finally {
    fs.rmSync(lock, { force: true });
  }
}
