import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { createQueueArgs, CREATE_QUEUE_SQL } from './boss-queue.js';
import { MIGRATIONS_DIR, openDatabase, PGLITE_DIR, type Database } from './client.js';
import {
  assertEmbeddedCanRun,
  CLUSTER_DIR,
  EmbeddedUnavailable,
  startCluster,
  type EmbeddedPostgres,
} from './embedded-postgres.js';
import * as schema from './schema/index.js';

export { PGLITE_DIR };
/** What that directory is renamed to once its data lives in the PostgreSQL cluster (kept, never deleted). */
export const PGLITE_BACKUP_DIR = 'pgdata.before-postgresql';
const MOVING_DIR = `${CLUSTER_DIR}.moving`;

/** Rows per batch when moving a table: bounded memory also for tables of stored files. */
const BATCH_ROWS = 100;

/**
 * The database of `npm start` without DATABASE_URL: the embedded PostgreSQL of DATA_DIR
 * (`startEmbedded`), opened through `pg`. Where that server cannot run (no binaries for the
 * platform; started by root with no user for the server, or with the checkout in a directory that
 * user cannot enter) and DATA_DIR has no cluster yet, PGlite runs inside the server process on
 * DATA_DIR/pgdata as before decision 0016, so that `npm start` works anywhere; it says so in the
 * log. With a cluster in DATA_DIR it is an error instead: its data would seem gone.
 */
export async function openEmbedded(
  dataDir: string,
  log: (line: string) => void,
): Promise<{ database: Database; server: EmbeddedPostgres | null }> {
  const cluster = path.join(dataDir, CLUSTER_DIR);
  try {
    await assertEmbeddedCanRun(cluster);
  } catch (e) {
    if (!(e instanceof EmbeddedUnavailable)) throw e;
    if (fs.existsSync(path.join(cluster, 'PG_VERSION')))
      throw new Error(`The embedded PostgreSQL of ${cluster} cannot start: ${e.message}.`, { cause: e });
    log(
      `database: the embedded PostgreSQL cannot run here: ${e.message}. PGlite runs inside the ` +
        `server instead, in ${path.join(dataDir, PGLITE_DIR)} (slower under load; docs/decisions/0016).`,
    );
    return { database: await openDatabase({ dataDir }), server: null };
  }
  const server = await startEmbedded(dataDir, log);
  return { database: await openDatabase({ url: server.url }), server };
}

/**
 * The embedded database of DATA_DIR: starts its PostgreSQL cluster, first moving the data of an
 * earlier version's PGlite directory into a new cluster when there is one. The move is all or
 * nothing: it builds the cluster in `postgres.moving`, renames it to `postgres` only when every row
 * is in, and keeps the PGlite directory as `pgdata.before-postgresql`. An interrupted move starts
 * over on the next start.
 */
export async function startEmbedded(dataDir: string, log: (line: string) => void): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true });
  const cluster = path.join(dataDir, CLUSTER_DIR);
  const old = path.join(dataDir, PGLITE_DIR);
  const hasCluster = fs.existsSync(path.join(cluster, 'PG_VERSION'));
  if (!hasCluster && fs.existsSync(path.join(old, 'PG_VERSION'))) {
    const moving = path.join(dataDir, MOVING_DIR);
    fs.rmSync(moving, { recursive: true, force: true });
    log(`database: moving the embedded database of ${old} (PGlite) to PostgreSQL`);
    const began = Date.now();
    const target = await startCluster(moving);
    try {
      const rows = await moveFromPglite(old, target.url);
      log(`database: moved ${rows} rows in ${((Date.now() - began) / 1000).toFixed(1)} s`);
    } finally {
      await target.stop();
    }
    fs.renameSync(moving, cluster);
  }
  if (fs.existsSync(path.join(cluster, 'PG_VERSION')) && fs.existsSync(old)) {
    const backup = fs.existsSync(path.join(dataDir, PGLITE_BACKUP_DIR))
      ? `${PGLITE_BACKUP_DIR}-${Date.now()}`
      : PGLITE_BACKUP_DIR;
    fs.renameSync(old, path.join(dataDir, backup));
    log(`database: the former PGlite directory is kept as ${path.join(dataDir, backup)}`);
  }
  return startCluster(cluster);
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Copies every row of the PGlite database in `pgliteDir` into the (empty) database at `url`: both
 * get the current migrations first, then the application's tables and the job queue (pg-boss: its
 * schema, queues, jobs, schedules) row by row in one transaction, then the sequences. Returns the
 * number of rows copied.
 */
export async function moveFromPglite(pgliteDir: string, url: string): Promise<number> {
  const lite = new PGlite({ dataDir: pgliteDir });
  try {
    await migratePglite(drizzlePglite(lite, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    const database = await openDatabase({ url });
    try {
      await database.migrate();
    } finally {
      await database.close();
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The queue's schema and queues first: pg-boss's construction plan commits by itself.
      const hasBoss =
        (await lite.query(`select 1 from pg_namespace where nspname = 'pgboss'`)).rows.length > 0;
      if (hasBoss) {
        await client.query(PgBoss.getConstructionPlans('pgboss'));
        const queues = await lite.query<Record<string, unknown>>('select * from pgboss.queue');
        for (const q of queues.rows) await client.query(CREATE_QUEUE_SQL, createQueueArgs(q));
      }
      await client.query('begin');
      // Rows arrive as they were: no triggers (data versions, audit) and no foreign key order.
      await client.query('set local session_replication_role = replica');
      const tables = await lite.query<{ schema: string; name: string }>(
        `select n.nspname as schema, c.relname as name from pg_class c
           join pg_namespace n on n.oid = c.relnamespace
          where c.relkind in ('r', 'p') and not c.relispartition
            and (n.nspname = 'public' or (n.nspname = 'pgboss' and c.relname not in ('queue', 'version')))
          order by 1, 2`,
      );
      let total = 0;
      for (const t of tables.rows) total += await copyTable(lite, client, t.schema, t.name);
      const sequences = await lite.query<{ schema: string; name: string; last: string | null }>(
        `select schemaname as schema, sequencename as name, last_value::text as last from pg_sequences
          where schemaname in ('public', 'pgboss')`,
      );
      for (const s of sequences.rows)
        if (s.last !== null)
          await client.query('select setval($1::regclass, $2::bigint, true)', [
            `${ident(s.schema)}.${ident(s.name)}`,
            s.last,
          ]);
      await client.query('commit');
      return total;
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      await client.end();
    }
  } finally {
    await lite.close();
  }
}

async function copyTable(
  lite: PGlite,
  client: pg.Client,
  schemaName: string,
  table: string,
): Promise<number> {
  const qualified = `${ident(schemaName)}.${ident(table)}`;
  const cols = await client.query<{ name: string }>(
    `select column_name as name from information_schema.columns
      where table_schema = $1 and table_name = $2 and is_generated = 'NEVER'
      order by ordinal_position`,
    [schemaName, table],
  );
  if (!cols.rows.length) throw new Error(`the table ${schemaName}.${table} is missing in PostgreSQL`);
  const list = cols.rows.map((c) => ident(c.name)).join(', ');
  const insert =
    `insert into ${qualified} (${list}) overriding system value ` +
    `select ${list} from json_populate_recordset(null::${qualified}, $1::json)`;
  let copied = 0;
  await lite.transaction(async (tx) => {
    await tx.exec(`declare moving no scroll cursor for select to_jsonb(t)::text as j from ${qualified} t`);
    for (;;) {
      const batch = await tx.query<{ j: string }>(`fetch ${BATCH_ROWS} from moving`);
      if (!batch.rows.length) break;
      await client.query(insert, [`[${batch.rows.map((r) => r.j).join(',')}]`]);
      copied += batch.rows.length;
    }
    await tx.exec('close moving');
  });
  return copied;
}
