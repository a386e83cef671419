import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const API_SRC = 'apps/api/src';

/**
 * The API test files that open a database through the test harness (or read TEST_DATABASE_URL
 * themselves): only these differ between PGlite and PostgreSQL. When TEST_DATABASE_URL is set (CI's
 * second API stage) the others, which never reach SQL, are not run a second time (issue 25).
 */
export function databaseTestFiles(root = API_SRC): string[] {
  const reachesDatabase = /\b(createTestApp|invoiceTestApp|freshDatabase|TEST_DATABASE_URL)\b/;
  return fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => reachesDatabase.test(fs.readFileSync(path.join(root, f), 'utf8')))
    .map((f) => path.join(root, f).split(path.sep).join('/'))
    .sort();
}

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', include: ['packages/*/src/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'api',
          include: process.env.TEST_DATABASE_URL ? databaseTestFiles() : [`${API_SRC}/**/*.test.ts`],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          globalSetup: [`${API_SRC}/test/global-setup.ts`],
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
