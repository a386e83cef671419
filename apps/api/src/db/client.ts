import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';
import { namingClient, StatementNamer } from './named-statements.js';
import { ACCESS_CHANNEL, ChangeClock, listenForAccessChanges } from './access-changes.js';
import { NOTICE_CHANNELS, Notices } from './notices.js';

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Settings of the embedded PostgreSQL (PGlite). Its WebAssembly memory only grows, and every page
 * of the shared buffers it touches stays resident: PostgreSQL's default of 128 MB shared buffers
 * alone made half of the server's idle memory. One process and one connection need far less (the
 * operating system's page cache still holds the data files). Measured in docs/decisions/0004.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB', 'temp_buffers=4MB'];

export type Db = ReturnType<typeof drizzlePg<typeof schema>>;
/** A transaction handle; services take `Db | Tx` so they compose inside one transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: its connection string (the follow-up worker opens its own connections: lib/follow-up.ts). */
  url?: string;
  /** Moves when what the access check reads may have changed (db/access-changes.ts). */
  changes: ChangeClock;
  /** What the database notifies on other channels, from any instance's writes (db/notices.ts). */
  notices: Notices;
  /** Raw SQL for the job queue (pg-boss) and health checks. */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PGlite only: its data directory as an uncompressed tarball after a checkpoint, for
   * `openDatabase({ loadDataDir })` (the test suites' template database, test/template.ts).
   */
  dumpDataDir?(): Promise<Blob>;
}

/** Where PGlite keeps its data under DATA_DIR (earlier versions; now the fallback of db/embedded.ts). */
export const PGLITE_DIR = 'pgdata';

/**
 * PostgreSQL is the one dialect and `pg` the one driver of the server: the embedded PostgreSQL of
 * DATA_DIR (db/embedded.ts) or a PostgreSQL server, both by connection string. Without one, PGlite:
 * in memory for the test suites, or on disk in `dataDir` where the embedded server cannot run
 * (db/embedded.ts). All get the same migrations and drizzle API.
 */
export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  /** PGlite only: start from this data directory tarball (a `dumpDataDir` of another). */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const changes = new ChangeClock();
    // Statements the server repeats are prepared on each connection (db/named-statements.ts);
    // its writes move the clock once done, other processes' through the listener.
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: 10,
      Client: namingClient(new StatementNamer(), changes),
    });
    // An idle connection that the server closes (restart, failover, admin command) must not
    // crash the process: the pool drops it and opens a new one on the next query.
    pool.on('error', (err) => console.error(`database: idle connection lost: ${err.message}`));
    const db = drizzlePg(pool, { schema });
    const notices = new Notices();
    const listener = await listenForAccessChanges(opts.url, changes, undefined, notices);
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      changes,
      notices,
      executeSql: async (text, values) => pool.query(text, values as unknown[]),
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
      close: async () => {
        await listener.close();
        await pool.end();
      },
    };
  }
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const lite = new PGlite({
    dataDir: opts.dataDir ? path.join(opts.dataDir, PGLITE_DIR) : undefined,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
    loadDataDir: opts.loadDataDir,
  });
  const db = drizzlePglite(lite, { schema }) as unknown as Db;
  // In the same process, PGlite calls the listener before the writing statement's promise resolves.
  const changes = new ChangeClock();
  await lite.listen(ACCESS_CHANNEL, () => changes.tick());
  changes.setLive(true);
  const notices = new Notices();
  for (const channel of NOTICE_CHANNELS)
    await lite.listen(channel, (payload) => notices.emit(channel, payload));
  return {
    db,
    kind: 'pglite',
    changes,
    notices,
    // pg-boss sends multi-statement SQL without parameters, which PGlite.query refuses.
    executeSql: async (text, values) =>
      values?.length
        ? lite.query(text, values as unknown[])
        : ((await lite.exec(text)).at(-1) ?? { rows: [] }),
    migrate: () => migratePglite(drizzlePglite(lite, { schema }), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => lite.close(),
    dumpDataDir: async () => {
      await lite.exec('CHECKPOINT');
      return lite.dumpDataDir('none');
    },
  };
}

/** Are all migration files applied? (for /api/health) */
export async function migrationsCurrent(database: Database): Promise<boolean> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  try {
    const res = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations', []);
    return (res.rows[0] as { n: number }).n >= journal.entries.length;
  } catch {
    return false;
  }
}
