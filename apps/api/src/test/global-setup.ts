// The API suites' global set-up (vitest.config.ts): on PostgreSQL, this run's template database is
// its own (its key carries KULU_TEST_RUN) and is dropped when the run ends, so a run leaves the
// server with the databases it found (CI: "each run creates and drops its own database"). On
// PGlite the keyed tarballs in the temp directory are kept and shared (docs/decisions/0021).
import crypto from 'node:crypto';
import pg from 'pg';

export default function setup(): (() => Promise<void>) | undefined {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return undefined;
  // Set before the workers start: they inherit it.
  const run = (process.env.KULU_TEST_RUN ??= crypto.randomBytes(4).toString('hex'));
  return async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(
        "select datname from pg_database where datname like 'kulu\\_tpl\\_%' and datname like $1",
        [`%\\_${run}`],
      );
      for (const { datname } of rows) {
        await admin.query(`alter database ${datname} with is_template false`);
        await admin.query(`drop database if exists ${datname} with (force)`);
      }
    } finally {
      await admin.end();
    }
  };
}
