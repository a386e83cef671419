import { defineConfig } from 'vitest/config';

/** Browser tests: the built web app served by the real API (see global-setup.ts). */
export default defineConfig({
  test: {
    name: 'web-e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
