import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * How many servers the browser tests start (global-setup.ts), each on its own copy of the demo with
 * one test file at a time on it (browser.ts `server()`): `E2E_SERVERS`, else one more than the
 * machine's cores, at most 4. A file leaves about half of a 2-core machine idle (a server, its
 * database and chromium mostly wait on each other); on this 2-core machine the whole suite took
 * 408 s on two servers and 343 s on three, the cores then busy (decision 0028). Their data never meet.
 */
const SERVERS = Math.max(1, Number(process.env.E2E_SERVERS) || Math.min(4, os.availableParallelism() + 1));

/** Browser tests: the built web app served by the real API (see global-setup.ts). */
export default defineConfig({
  test: {
    name: 'web-e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    // A worker per server: the global set-up starts `maxWorkers` servers.
    maxWorkers: SERVERS,
    fileParallelism: SERVERS > 1,
    // A sign-in may wait up to 110 s for the shell on a loaded machine (browser.ts `login`): a test
    // that signs in gets more than that, or it times out before its own wait does (CI saw "logs out
    // to the login page" stopped at 60 s while the server was still busy after the demo import).
    testTimeout: 150_000,
    hookTimeout: 150_000,
    // A page under CI load can take seconds to answer: polls wait up to 15 s, not vitest's 1 s.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // On CI a failed browser test runs once more and vitest reports it as retried: the stage shares
    // two cores with a server, its database and chromium, and two runs each lost one different test
    // to a wait that passed alone. A test that fails twice still fails the run.
    retry: process.env.CI ? 1 : 0,
  },
});
