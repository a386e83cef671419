import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { prepareSnapshot, repoRoot, SNAPSHOT_MARKER, startServer } from './server';

const run = promisify(execFile);

/** One of the suite's servers, and what its tests read beside it. */
export interface SuiteServer {
  baseUrl: string;
  /** The server's DATA_DIR: its mail outbox (no SMTP_URL) is where activation links arrive. */
  dataDir: string;
  /** Where browser.ts `login` keeps each identity's session on this server after its first form sign-in. */
  sessionDir: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The servers, one per test worker (browser.ts `server()`: the worker's own). */
    servers: SuiteServer[];
  }
}

/**
 * Starts a built server per test worker (vitest.config.ts `maxWorkers`: E2E_SERVERS, else the cores + 1, at most 4) as
 * `npm start` does (serving apps/web/dist), each on a free port with demo data on its own copy of a
 * prepared snapshot: E2E_SNAPSHOT's (prepare-snapshot.ts: the same first-start demo import, made
 * earlier), else one prepared now, once for all of them (a single server without a snapshot imports
 * the demo on its own first start). A file's tests run on its worker's server, so two files at a
 * time never see each other's changes.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  }
  const temporary: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    temporary.push(dir);
    return dir;
  };
  const count = Math.max(1, project.config.maxWorkers);
  const servers: SuiteServer[] = [];
  const running: Array<{ stop(): Promise<boolean> }> = [];
  const stopAll = async () => {
    await Promise.all(running.map((s) => s.stop()));
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  };
  try {
    let snapshot = process.env.E2E_SNAPSHOT;
    if (snapshot && !existsSync(join(snapshot, SNAPSHOT_MARKER))) {
      console.log(`browser tests: no prepared snapshot in ${snapshot}; the demo is imported now`);
      snapshot = undefined;
    }
    // More than one server: the demo is imported once, into a snapshot they all copy. One server
    // without a snapshot makes the import itself, on its first start.
    if (!snapshot && count > 1) {
      snapshot = tempDir('kulu-e2e-snapshot-');
      const seconds = await prepareSnapshot(snapshot);
      console.log(`browser tests: the demo imported in ${seconds.toFixed(1)} s`);
    }
    console.log(
      `browser tests: ${count} server(s)${snapshot ? `, each on a copy of the snapshot ${snapshot}` : ''}`,
    );
    // Every start is awaited before a failure is thrown, so that no server is left running.
    const started = await Promise.allSettled(
      Array.from({ length: count }, async () => {
        const dataDir = tempDir('kulu-e2e-');
        if (snapshot) {
          // cp -a keeps owners and modes: started by root, the embedded PostgreSQL runs as the user
          // `postgres` and refuses a cluster it does not own.
          await run('cp', ['-a', `${snapshot}/.`, dataDir]);
          rmSync(join(dataDir, SNAPSHOT_MARKER));
        }
        const server = await startServer(dataDir);
        running.push(server);
        servers.push({ baseUrl: server.baseUrl, dataDir, sessionDir: tempDir('kulu-e2e-sessions-') });
      }),
    );
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (e) {
    await stopAll();
    throw e;
  }
  project.provide('servers', servers);

  return async () => {
    // How the run signed in: form sign-ins (one per identity, password and server) and reused sessions.
    const lines = servers.flatMap(({ sessionDir }) => {
      const log = join(sessionDir, 'sign-ins.log');
      return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
    });
    await stopAll();
    if (lines.length) {
      const form = lines.filter((l) => l.startsWith('form ')).length;
      console.log(
        `browser tests signed in ${lines.length} times: ${form} through the form, ${lines.length - form} reused`,
      );
    }
  };
}
