import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, freshDatabase, type TestApp } from '../test/helpers.js';
import { BackupError, backupDatabase, restoreDatabase } from './backup.js';
import type { Database } from './client.js';

/** Every application table's row count and a digest of its rows, and every sequence's position. */
async function contents(database: Database): Promise<Record<string, string>> {
  const q = async <T>(text: string) =>
    ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
  const out: Record<string, string> = {};
  const tables = await q<{ name: string }>(
    `select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
  );
  for (const { name } of tables) {
    const [r] = await q<{ n: number; digest: string | null }>(
      `select count(*)::int as n, md5(string_agg(to_jsonb(t)::text, E'\\n' order by to_jsonb(t)::text)) as digest
         from public."${name}" t`,
    );
    out[name] = `${r.n} ${r.digest}`;
  }
  for (const s of await q<{ name: string; last: string | null }>(
    `select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'`,
  ))
    out[`sequence ${s.name}`] = String(s.last);
  return out;
}

describe('backup and restore (npm run backup / npm run restore)', () => {
  let t: TestApp;
  let dir: string;
  let source: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-backup-'));
    // The generated secrets go with the data (DATA_DIR/secrets).
    fs.mkdirSync(path.join(dir, 'data/secrets'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'data/secrets/encryption-key'), 'ab'.repeat(32), { mode: 0o600 });
    fs.writeFileSync(path.join(dir, 'data/secrets/jwt-secret'), 'cd'.repeat(32), { mode: 0o600 });
    source = await contents(t.deps.database);
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores into an empty database the same rows, sequences and secrets as the backup held', async () => {
    const file = path.join(dir, 'kulu.backup.gz');
    const made = await backupDatabase(t.deps.database, file, { dataDir: path.join(dir, 'data') });
    expect(made.rows).toBeGreaterThan(100);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { database, drop } = await freshDatabase();
    try {
      const restored = await restoreDatabase(database, file, { dataDir: path.join(dir, 'restored') });
      expect(restored).toEqual(made);
      expect(await contents(database)).toEqual(source);
      // The demo admin signs in on the restored data with the same password hash.
      const [admin] = (
        (await database.db.execute(
          sql.raw(`select email from users where email = 'admin@kulu.fi'`),
        )) as unknown as {
          rows: { email: string }[];
        }
      ).rows;
      expect(admin?.email).toBe('admin@kulu.fi');
      for (const name of ['encryption-key', 'jwt-secret']) {
        const restoredSecret = path.join(dir, 'restored/secrets', name);
        expect(fs.readFileSync(restoredSecret, 'utf8')).toBe(
          fs.readFileSync(path.join(dir, 'data/secrets', name), 'utf8'),
        );
        expect(fs.statSync(restoredSecret).mode & 0o777).toBe(0o600);
      }
    } finally {
      await database.close();
      await drop();
    }
  });

  it('refuses to restore over data, and leaves that database as it was', async () => {
    const file = path.join(dir, 'over.backup.gz');
    await backupDatabase(t.deps.database, file);
    await expect(restoreDatabase(t.deps.database, file)).rejects.toThrow(/not empty/);
    expect(await contents(t.deps.database)).toEqual(source);
  });

  it('restores nothing from a cut-short or foreign file', async () => {
    const file = path.join(dir, 'cut.backup.gz');
    await backupDatabase(t.deps.database, file);
    const text = gunzipSync(fs.readFileSync(file)).toString();
    fs.writeFileSync(file, gzipSync(text.slice(0, text.lastIndexOf('["end"'))));
    const foreign = path.join(dir, 'foreign.gz');
    fs.writeFileSync(foreign, gzipSync('["something else"]\n'));
    const { database, drop } = await freshDatabase();
    try {
      await expect(restoreDatabase(database, file)).rejects.toThrow(BackupError);
      await expect(restoreDatabase(database, file)).rejects.toThrow(/cut short/);
      await expect(restoreDatabase(database, foreign)).rejects.toThrow(/not a Kulu backup/);
      const [{ n }] = (
        (await database.db.execute(sql.raw('select count(*)::int as n from users'))) as unknown as {
          rows: { n: number }[];
        }
      ).rows;
      expect(n).toBe(0);
    } finally {
      await database.close();
      await drop();
    }
  });
});
