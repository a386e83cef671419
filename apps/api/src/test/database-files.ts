import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** apps/api/src, wherever the tests run from. */
const API_SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * How a test file opens a database: the harness itself, or one of the fixtures built on it
 * (test/fixtures.ts, test/client-wing.ts, test/dated-entries.ts), or TEST_DATABASE_URL read directly.
 * A new fixture that opens a database is named here; `assertRunsOnPostgres` fails the test file that
 * uses one not named (the file would otherwise be left out of CI's PostgreSQL stage unnoticed).
 */
const REACHES_DATABASE =
  /\b(createTestApp|useSignedIn|useUploader|useClientWing|useLimitedClientUser|useInvoiceTestApp|useDatedEntries|freshDatabase|TEST_DATABASE_URL)\b/;

/**
 * The API test files that open a database through the test harness (or read TEST_DATABASE_URL
 * themselves): only these differ between PGlite and PostgreSQL. When TEST_DATABASE_URL is set (CI's
 * second API stage) the others, which never reach SQL, are not run a second time (issue 25).
 * `root` as the caller names it (the paths come back joined to it, `/`-separated).
 */
export function databaseTestFiles(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => REACHES_DATABASE.test(fs.readFileSync(path.join(root, f), 'utf8')))
    .map((f) => path.join(root, f).split(path.sep).join('/'))
    .sort();
}

let known: Set<string> | undefined;

/**
 * The test file now running (vitest's worker) opens a database: it must be one of
 * `databaseTestFiles`, or CI would test its SQL on PGlite only. Outside a test file (global set-up,
 * benches) there is nothing to check.
 */
export async function assertRunsOnPostgres(): Promise<void> {
  if (!process.env.VITEST_POOL_ID) return;
  const { expect } = await import('vitest');
  const file = expect.getState().testPath;
  if (!file?.endsWith('.test.ts')) return;
  known ??= new Set(databaseTestFiles(API_SRC).map((f) => path.resolve(f)));
  if (!known.has(path.resolve(file))) {
    throw new Error(
      `${path.relative(API_SRC, file)} opens a database but CI's PostgreSQL stage would not run it: ` +
        'name the fixture it sets up through in REACHES_DATABASE (apps/api/src/test/database-files.ts)',
    );
  }
}
