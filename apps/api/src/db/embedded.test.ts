import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { JobQueue, QUEUE } from '../lib/queue.js';
import { MIGRATIONS_DIR, openDatabase, type Database } from './client.js';
import { openEmbedded, PGLITE_BACKUP_DIR, PGLITE_DIR, startEmbedded } from './embedded.js';
import { assertEmbeddedCanRun, EmbeddedUnavailable, type EmbeddedPostgres } from './embedded-postgres.js';
import * as schema from './schema/index.js';

const dirs: string[] = [];
const servers: EmbeddedPostgres[] = [];
const quiet = () => {};

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-embedded-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, log: (line: string) => void = quiet) {
  const server = await startEmbedded(dataDir, log);
  servers.push(server);
  return server;
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows as T[];
  } finally {
    await c.end();
  }
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * Why the embedded server cannot run on this machine as the tests run (null where it can): root with
 * the checkout in a private directory (its home, mode 0700), where the server's user cannot reach
 * the binaries in node_modules. There the tests check what `npm start` then does: PGlite.
 */
const unavailable = await assertEmbeddedCanRun(path.join(tempDir(), 'postgres')).then(
  () => null,
  (e: unknown) => {
    if (e instanceof EmbeddedUnavailable) return e.message;
    throw e;
  },
);

describe.runIf(unavailable)('where the embedded PostgreSQL cannot run here', () => {
  it('runs PGlite inside the server on DATA_DIR, says why, and keeps its data across restarts', async () => {
    const dataDir = tempDir();
    const lines: string[] = [];
    const first = await openEmbedded(dataDir, (l) => lines.push(l));
    expect(first.server).toBeNull();
    expect(first.database.kind).toBe('pglite');
    await first.database.migrate();
    await first.database.db.insert(schema.operators).values({ name: 'Moi Mobiili' });
    await first.database.close();
    expect(lines.join('\n')).toContain(`cannot run here: ${unavailable}. PGlite runs inside the server`);
    expect(fs.existsSync(path.join(dataDir, PGLITE_DIR, 'PG_VERSION'))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(false);

    const again = await openEmbedded(dataDir, quiet);
    const rows = await again.database.db.select().from(schema.operators);
    await again.database.close();
    expect(rows.map((r) => r.name)).toEqual(['Moi Mobiili']);
  }, 300_000);

  it("keeps using an earlier version's PGlite directory in place instead of moving it", async () => {
    const dataDir = tempDir();
    const lite = new PGlite({ dataDir: path.join(dataDir, PGLITE_DIR) });
    await migratePglite(drizzlePglite(lite, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    await drizzlePglite(lite, { schema }).insert(schema.operators).values({ name: 'Ääni & Data' });
    await lite.close();
    const { database, server } = await openEmbedded(dataDir, quiet);
    const rows = await database.db.select().from(schema.operators);
    await database.close();
    expect(server).toBeNull();
    expect(rows.map((r) => r.name)).toEqual(['Ääni & Data']);
    expect(fs.existsSync(path.join(dataDir, PGLITE_BACKUP_DIR))).toBe(false);
  }, 300_000);
});

describe('the embedded PostgreSQL of DATA_DIR', () => {
  it.skipIf(unavailable)(
    'creates a cluster on first start, serves the application through pg and keeps its data across restarts',
    async () => {
      const dataDir = tempDir();
      let server = await start(dataDir);
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
      const database = await openDatabase({ url: server.url });
      await database.migrate();
      await database.db.insert(schema.operators).values({ name: 'Moi Mobiili' });
      await database.close();
      await server.stop();
      servers.pop();

      server = await start(dataDir);
      const rows = await query<{ name: string }>(server.url, 'select name from operators');
      expect(rows.map((r) => r.name)).toEqual(['Moi Mobiili']);
      // A Unix socket only: no TCP port is opened.
      expect(
        await query<{ v: string }>(server.url, `select current_setting('listen_addresses') as v`),
      ).toEqual([{ v: '' }]);
    },
  );

  it.skipIf(unavailable)(
    "moves an earlier version's PGlite directory: rows, sequences and queued jobs, keeping the old directory",
    async () => {
      const dataDir = tempDir();
      const lite = new PGlite({ dataDir: path.join(dataDir, PGLITE_DIR) });
      await migratePglite(drizzlePglite(lite, { schema }), { migrationsFolder: MIGRATIONS_DIR });
      const liteDb = drizzlePglite(lite, { schema });
      await liteDb.insert(schema.operators).values([{ name: 'Moi Mobiili' }, { name: 'Ääni & Data' }]);
      const queueDb = {
        executeSql: async (text: string, values?: unknown[]) =>
          values?.length ? lite.query(text, values) : ((await lite.exec(text)).at(-1) ?? { rows: [] }),
      } as unknown as Database;
      const queue = new JobQueue(queueDb);
      const jobId = await queue.send(QUEUE.sendMail, { to: 'anna@example.fi' });
      await queue.stop();
      await lite.close();
      // What an interrupted earlier move left behind is started over.
      fs.mkdirSync(path.join(dataDir, 'postgres.moving'));
      fs.writeFileSync(path.join(dataDir, 'postgres.moving', 'junk'), 'x');

      const lines: string[] = [];
      const server = await start(dataDir, (l) => lines.push(l));
      expect(lines.join('\n')).toMatch(/moved \d+ rows/);
      const names = await query<{ id: number; name: string }>(
        server.url,
        'select id, name from operators order by id',
      );
      expect(names.map((r) => r.name)).toEqual(['Moi Mobiili', 'Ääni & Data']);
      // The sequence goes on where PGlite's was.
      const next = await query<{ id: number }>(
        server.url,
        `insert into operators (name) values ('Uusi') returning id`,
      );
      expect(next[0]!.id).toBe(names[1]!.id + 1);
      const jobs = await query<{ state: string; data: { to: string } }>(
        server.url,
        'select state, data from pgboss.job where id = $1',
        [jobId],
      );
      expect(jobs).toEqual([{ state: 'created', data: { to: 'anna@example.fi' } }]);
      // Migrations are recorded, so the server's own migrate() has nothing to do.
      const database = await openDatabase({ url: server.url });
      await database.migrate();
      await database.close();
      expect(fs.existsSync(path.join(dataDir, PGLITE_BACKUP_DIR, 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, PGLITE_DIR))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'postgres.moving'))).toBe(false);
    },
    300_000,
  );

  describe('where the server cannot run (started by root)', () => {
    const asRoot = process.getuid?.() === 0;
    const before = process.env.EMBEDDED_PG_USER;
    afterEach(() => {
      if (before === undefined) delete process.env.EMBEDDED_PG_USER;
      else process.env.EMBEDDED_PG_USER = before;
    });

    async function openedIn(dataDir: string) {
      const lines: string[] = [];
      const { database, server } = await openEmbedded(dataDir, (l) => lines.push(l));
      try {
        await database.migrate();
        await database.db.insert(schema.operators).values({ name: 'Moi Mobiili' });
        return { kind: database.kind, server, log: lines.join('\n') };
      } finally {
        await database.close();
        await server?.stop();
      }
    }

    it.skipIf(!asRoot)(
      'runs PGlite in the server on a new DATA_DIR when there is no user to run it as',
      async () => {
        process.env.EMBEDDED_PG_USER = 'kulu-no-such-user';
        const dataDir = tempDir();
        const opened = await openedIn(dataDir);
        expect(opened.kind).toBe('pglite');
        expect(opened.log).toMatch(/no user "kulu-no-such-user".*PGlite runs inside the server/s);
        expect(fs.existsSync(path.join(dataDir, PGLITE_DIR, 'PG_VERSION'))).toBe(true);
        expect(fs.existsSync(path.join(dataDir, 'postgres', 'PG_VERSION'))).toBe(false);
        // The data is there on the next start too.
        const again = await openEmbedded(dataDir, quiet);
        const rows = await again.database.db.select().from(schema.operators);
        await again.database.close();
        expect(rows.map((r) => r.name)).toContain('Moi Mobiili');
      },
    );

    it.skipIf(!asRoot)(
      'runs PGlite when DATA_DIR is in a directory the server user cannot enter',
      async () => {
        const home = path.join(tempDir(), 'private-home');
        fs.mkdirSync(home, { mode: 0o700 });
        fs.chmodSync(home, 0o700);
        const opened = await openedIn(path.join(home, 'data'));
        expect(opened.kind).toBe('pglite');
        // Where the checkout itself is private too, the binaries are out of reach first.
        expect(opened.log).toMatch(/the server's user \(uid \d+\) cannot (reach|run)/);
      },
    );

    it.skipIf(!asRoot)('refuses to start rather than hide the data of an existing cluster', async () => {
      // A cluster's mark (a real one cannot start where the checkout is private; the check is the same).
      const dataDir = tempDir();
      fs.mkdirSync(path.join(dataDir, 'postgres'));
      fs.writeFileSync(path.join(dataDir, 'postgres', 'PG_VERSION'), '18\n');
      process.env.EMBEDDED_PG_USER = 'kulu-no-such-user';
      await expect(openEmbedded(dataDir, quiet)).rejects.toThrow(
        /cannot start: PostgreSQL does not run as root/,
      );
    });
  });
});
