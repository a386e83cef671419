import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { databaseTestFiles } from './apps/api/src/test/database-files.js';

const API_SRC = 'apps/api/src';

/**
 * The API test files that measure the process they run in (its memory peak, the time a refusal or a
 * parse takes, a parse's share of the hour) or start a whole server: with a second test file beside
 * them on a 2-core machine their figures are the neighbour's, so they run alone, after the rest
 * (project "api:serial", docs/decisions/0022).
 */
export const LOAD_SENSITIVE = [
  'build.test.ts',
  'modules/invoices/pipeline/parse-runner.test.ts',
  'lib/queue.test.ts',
  'security/account-enumeration.test.ts',
  'security/decompression-bomb.test.ts',
  'security/failed-uploads-20mb.test.ts',
  'security/inflate-bypass.test.ts',
  'security/orphaned-parse.test.ts',
  'security/parse-fairness.test.ts',
  'security/upload-bytes.test.ts',
  'security/xlsx-import.test.ts',
].map((f) => `${API_SRC}/${f}`);

const apiFiles = process.env.TEST_DATABASE_URL ? databaseTestFiles(API_SRC) : [`${API_SRC}/**/*.test.ts`];
const api = {
  environment: 'node',
  testTimeout: 60_000,
  hookTimeout: 120_000,
  pool: 'forks',
  globalSetup: [`${API_SRC}/test/global-setup.ts`],
} as const;

/**
 * Test files run on two workers (vitest's default on 2 cores is one), except the load-sensitive ones
 * above, which run one at a time once the others are done (sequence.groupOrder).
 */
const WORKERS = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    projects: [
      // A timeout only catches a hang (speed goals are benchmarks): reading a repaired 40-subscription
      // PDF took 10 s under a load of 15, past vitest's default of 5 s.
      {
        test: {
          name: 'shared',
          include: ['packages/*/src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          ...api,
          name: 'api',
          include: apiFiles,
          exclude: ['**/node_modules/**', ...LOAD_SENSITIVE],
        },
      },
      {
        test: {
          ...api,
          name: 'api:serial',
          include: apiFiles.flatMap((f) =>
            f.includes('*') ? LOAD_SENSITIVE : LOAD_SENSITIVE.filter((s) => s === f),
          ),
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
