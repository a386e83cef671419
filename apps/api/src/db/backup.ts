import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { once } from 'node:events';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { createQueueArgs, CREATE_QUEUE_SQL } from './boss-queue.js';
import { MIGRATIONS_DIR, type Database, type Tx } from './client.js';

/**
 * `npm run backup` / `npm run restore` (scripts/backup.ts, docs/decisions/0029-backups.md): a
 * logical dump made through the database server itself, so it needs no `pg_dump` of the server's
 * version (the embedded PostgreSQL 18 package ships none). One file, gzip-compressed JSON lines:
 *   ["kulu-backup", {version, createdAt, migrations, queues, secrets}]
 *   ["table", schema, name]  then  ["row", {...}]  for each row (to_jsonb of the row)
 *   ["seq", schema, name, last_value]
 *   ["end", tables, rows]
 * read in one REPEATABLE READ, READ ONLY transaction: a consistent snapshot while the server runs.
 * Restore goes into an empty database: the same migrations first, then the job queue's schema and
 * queues, then every row in one transaction with triggers off, then the sequences.
 */
export const BACKUP_FORMAT = 'kulu-backup';
const VERSION = 1;
const BATCH_ROWS = 500;

/** The generated secrets under DATA_DIR/secrets (lib/secrets.ts) that go with the data. */
export const SECRETS_DIR = 'secrets';

interface Header {
  version: number;
  createdAt: string;
  /** Migrations applied in the source (restore needs the same code: the same count). */
  migrations: number;
  /** pg-boss's queues (created with its own function, which makes each queue's partition). */
  queues: Record<string, unknown>[] | null;
  /** DATA_DIR/secrets: file name → contents. */
  secrets: Record<string, string>;
}

type Line =
  | [typeof BACKUP_FORMAT, Header]
  | ['table', string, string]
  | ['row', Record<string, unknown>]
  | ['seq', string, string, string]
  | ['end', number, number];

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function rows<T>(tx: Tx | Database['db'], query: string): Promise<T[]> {
  return ((await tx.execute(sql.raw(query))) as unknown as { rows: T[] }).rows;
}

/** Migrations in this code's journal. */
export function journalMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

const TABLES = `select n.nspname as schema, c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'p') and not c.relispartition
     and (n.nspname = 'public' or (n.nspname = 'pgboss' and c.relname not in ('queue', 'version')))
   order by 1, 2`;

/** A refusal whose message is meant for the operator (no stack trace). */
export class BackupError extends Error {}

/** Reads DATA_DIR/secrets (absent: none). */
function readSecrets(dataDir: string | undefined): Record<string, string> {
  const dir = dataDir && path.join(dataDir, SECRETS_DIR);
  if (!dir || !fs.existsSync(dir)) return {};
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    if (fs.lstatSync(file).isFile()) out[name] = fs.readFileSync(file, 'utf8');
  }
  return out;
}

/**
 * Writes a backup of `database` (and of DATA_DIR/secrets when `dataDir` is given) to `file`, mode
 * 600. Returns the number of tables and rows.
 */
export async function backupDatabase(
  database: Database,
  file: string,
  opts: { dataDir?: string } = {},
): Promise<{ tables: number; rows: number }> {
  const part = `${file}.part`;
  const gzip = createGzip({ level: 6 });
  const out = fs.createWriteStream(part, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(out);
  const write = async (line: Line) => {
    if (!gzip.write(`${JSON.stringify(line)}\n`)) await once(gzip, 'drain');
  };
  let tables = 0;
  let total = 0;
  try {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw('set transaction isolation level repeatable read, read only'));
      const [{ n }] = await rows<{ n: number }>(
        tx,
        `select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      const hasBoss = (await rows(tx, `select 1 from pg_namespace where nspname = 'pgboss'`)).length > 0;
      const queues = hasBoss
        ? (await rows<{ j: Record<string, unknown> }>(tx, 'select to_jsonb(q) as j from pgboss.queue q')).map(
            (r) => r.j,
          )
        : null;
      await write([
        BACKUP_FORMAT,
        {
          version: VERSION,
          createdAt: new Date().toISOString(),
          migrations: n,
          queues,
          secrets: readSecrets(opts.dataDir),
        },
      ]);
      for (const t of await rows<{ schema: string; name: string }>(tx, TABLES)) {
        await write(['table', t.schema, t.name]);
        tables++;
        await tx.execute(
          sql.raw(
            `declare dumping no scroll cursor for select to_jsonb(t)::text as j from ${ident(t.schema)}.${ident(t.name)} t`,
          ),
        );
        for (;;) {
          const batch = await rows<{ j: string }>(tx, `fetch ${BATCH_ROWS} from dumping`);
          if (!batch.length) break;
          for (const r of batch) {
            // The row's JSON text as the database wrote it, inside the line's array.
            if (!gzip.write(`["row",${r.j}]\n`)) await once(gzip, 'drain');
          }
          total += batch.length;
        }
        await tx.execute(sql.raw('close dumping'));
      }
      const sequences = await rows<{ schema: string; name: string; last: string | null }>(
        tx,
        `select schemaname as schema, sequencename as name, last_value::text as last from pg_sequences
          where schemaname in ('public', 'pgboss')`,
      );
      for (const s of sequences) if (s.last !== null) await write(['seq', s.schema, s.name, s.last]);
      await write(['end', tables, total]);
    });
    gzip.end();
    await done;
    fs.renameSync(part, file);
  } catch (e) {
    gzip.destroy();
    out.destroy();
    fs.rmSync(part, { force: true });
    throw e;
  }
  return { tables, rows: total };
}

async function* lines(file: string): AsyncGenerator<Line> {
  const input = fs.createReadStream(file).pipe(createGunzip());
  const reader = readline.createInterface({ input, crlfDelay: Infinity });
  for await (const text of reader) if (text) yield JSON.parse(text) as Line;
}

/**
 * Restores `file` into `database`, which must hold no data yet (a new DATA_DIR or an empty
 * database), and writes its secrets into DATA_DIR/secrets when `dataDir` is given (refusing to
 * replace different ones). Returns the number of tables and rows restored.
 */
export async function restoreDatabase(
  database: Database,
  file: string,
  opts: { dataDir?: string } = {},
): Promise<{ tables: number; rows: number }> {
  const it = lines(file);
  const first = (await it.next()).value;
  if (!Array.isArray(first) || first[0] !== BACKUP_FORMAT)
    throw new BackupError(`${file} is not a Kulu backup (npm run backup writes one)`);
  const header: Header = first[1];
  if (header.version !== VERSION) throw new BackupError(`backup format ${header.version} is not known here`);
  const migrations = journalMigrations();
  if (header.migrations !== migrations)
    throw new BackupError(
      `the backup was made by a Kulu with ${header.migrations} database migrations, this one has ${migrations}: ` +
        'restore it with the version that made it, then upgrade',
    );
  await database.migrate();
  const [{ n: users }] = await rows<{ n: number }>(database.db, 'select count(*)::int as n from users');
  if (users > 0)
    throw new BackupError(
      'the database to restore into is not empty: restore into a new DATA_DIR or database',
    );
  const secretsDir = opts.dataDir && path.join(opts.dataDir, SECRETS_DIR);
  if (secretsDir)
    for (const [name, value] of Object.entries(header.secrets)) {
      const target = path.join(secretsDir, path.basename(name));
      if (fs.existsSync(target) && fs.readFileSync(target, 'utf8') !== value)
        throw new BackupError(`${target} exists with another value: restore into a new DATA_DIR`);
    }
  if (header.queues) {
    // pg-boss's schema commits by itself; each queue through its own function (its partition).
    await database.executeSql(PgBoss.getConstructionPlans('pgboss'));
    for (const q of header.queues) await database.executeSql(CREATE_QUEUE_SQL, createQueueArgs(q));
  }
  let tables = 0;
  let total = 0;
  let ended = false;
  await database.db.transaction(async (tx) => {
    // Rows arrive as they were: no triggers (data versions, audit) and no foreign key order.
    await tx.execute(sql.raw('set local session_replication_role = replica'));
    let insert: ((batch: string[]) => Promise<void>) | null = null;
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length && insert) await insert(batch);
      total += batch.length;
      batch = [];
    };
    for await (const line of it) {
      if (line[0] === 'row') {
        if (!insert) throw new BackupError('the backup has a row outside any table');
        batch.push(JSON.stringify(line[1]));
        if (batch.length >= BATCH_ROWS) await flush();
      } else if (line[0] === 'table') {
        await flush();
        const qualified = `${ident(line[1])}.${ident(line[2])}`;
        const cols = await rows<{ name: string }>(
          tx,
          `select column_name as name from information_schema.columns
            where table_schema = '${line[1].replaceAll("'", "''")}' and table_name = '${line[2].replaceAll("'", "''")}'
              and is_generated = 'NEVER' order by ordinal_position`,
        );
        if (!cols.length) throw new BackupError(`the table ${line[1]}.${line[2]} does not exist here`);
        const list = cols.map((c) => ident(c.name)).join(', ');
        insert = async (b) => {
          await tx.execute(
            sql`${sql.raw(`insert into ${qualified} (${list}) overriding system value select ${list} from json_populate_recordset(null::${qualified}, `)}${`[${b.join(',')}]`}::json)`,
          );
        };
        tables++;
      } else if (line[0] === 'seq') {
        await flush();
        await tx.execute(
          sql`select setval(${`${ident(line[1])}.${ident(line[2])}`}::regclass, ${line[3]}::bigint, true)`,
        );
      } else if (line[0] === 'end') {
        await flush();
        if (line[1] !== tables || line[2] !== total)
          throw new BackupError(
            `the backup is damaged: ${tables} tables and ${total} rows of ${line[1]} and ${line[2]}`,
          );
        ended = true;
      }
    }
    if (!ended) throw new BackupError('the backup is cut short (no end line): nothing was restored');
  });
  if (secretsDir) {
    fs.mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
    for (const [name, value] of Object.entries(header.secrets)) {
      const target = path.join(secretsDir, path.basename(name));
      if (!fs.existsSync(target)) fs.writeFileSync(target, value, { mode: 0o600, flag: 'wx' });
    }
  }
  return { tables, rows: total };
}
