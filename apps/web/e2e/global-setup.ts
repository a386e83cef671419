import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot, SNAPSHOT_MARKER, startServer } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's DATA_DIR: its mail outbox (no SMTP_URL) is where activation links arrive. */
    dataDir: string;
    /** Where browser.ts `login` keeps each identity's session after its first form sign-in. */
    sessionDir: string;
  }
}

/**
 * Starts the built server as `npm start` does (serving apps/web/dist) on a free port with demo data:
 * on a copy of the prepared snapshot E2E_SNAPSHOT names (prepare-snapshot.ts: the same first-start
 * demo import, made earlier), else with a fresh first start that imports the demo now.
 */
export default async function setup(project: TestProject) {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'kulu-e2e-'));
  const snapshot = process.env.E2E_SNAPSHOT;
  if (snapshot && existsSync(join(snapshot, SNAPSHOT_MARKER))) {
    // cp -a keeps owners and modes: started by root, the embedded PostgreSQL runs as the user
    // `postgres` and refuses a cluster it does not own.
    execFileSync('cp', ['-a', `${snapshot}/.`, dataDir]);
    rmSync(join(dataDir, SNAPSHOT_MARKER));
    console.log(`browser tests: the server starts on a copy of the prepared snapshot ${snapshot}`);
  } else if (snapshot) {
    console.log(`browser tests: no prepared snapshot in ${snapshot}; the server imports the demo now`);
  }
  const server = await startServer(dataDir);
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', dataDir);
  const sessionDir = mkdtempSync(join(tmpdir(), 'kulu-e2e-sessions-'));
  project.provide('sessionDir', sessionDir);

  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    // How the run signed in: form sign-ins (one per identity and password) and reused sessions.
    const signIns = join(sessionDir, 'sign-ins.log');
    if (existsSync(signIns)) {
      const lines = readFileSync(signIns, 'utf8').trim().split('\n');
      const form = lines.filter((l) => l.startsWith('form ')).length;
      console.log(
        `browser tests signed in ${lines.length} times: ${form} through the form, ${lines.length - form} reused`,
      );
    }
    rmSync(sessionDir, { recursive: true, force: true });
  };
}
