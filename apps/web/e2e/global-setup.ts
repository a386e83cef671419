import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    /** The server's DATA_DIR: its mail outbox (no SMTP_URL) is where activation links arrive. */
    dataDir: string;
    /** Where browser.ts `login` keeps each identity's session after its first form sign-in. */
    sessionDir: string;
  }
}

const repoRoot = resolve(import.meta.dirname, '../../..');

const freePort = () =>
  new Promise<number>((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        address && typeof address === 'object' ? res(address.port) : rej(new Error('no port')),
      );
    });
  });

/** GET /api/health's answer: `demo` on a demo install (apps/api/src/modules/health). */
interface Health {
  status: string;
  demo?: 'importing' | 'ready';
}

/**
 * Waits until the server answers /api/health and says its first start's demo import is `ready`:
 * every demo invoice imported and its optimization and alerts computed (apps/api/src/demo/
 * import-state.ts). The tests then read the figures a user would see once the demo is in, instead of
 * racing the import (e.g. a default period computed before any invoice).
 */
async function waitForDemoReady(url: string, child: ChildProcess, log: () => string, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(url);
      const health = (await res.json()) as Health;
      if (res.status === 200 && health.demo === 'ready') return;
      last = `${res.status} ${JSON.stringify(health)}`;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the demo import was not ready within ${timeoutMs} ms (last: ${last}):\n${log()}`);
}

/** Starts the built server as `npm start` does (serving apps/web/dist) on a free port with fresh demo data. */
export default async function setup(project: TestProject) {
  if (!existsSync(join(repoRoot, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'kulu-e2e-'));
  let output = '';
  // What users run: `npm start`'s script, which runs the compiled server (apps/api/dist, built by
  // `npm run test:e2e` before the tests) with its memory settings, not the TypeScript sources.
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
      LOG_LEVEL: 'warn',
      // The suite logs in many times a minute from one address; the limit itself is tested in the API suite.
      LOGIN_RATE_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);

  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForDemoReady(`${baseUrl}/api/health`, child, () => output);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  const sessionDir = mkdtempSync(join(tmpdir(), 'kulu-e2e-sessions-'));
  project.provide('sessionDir', sessionDir);

  return async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise<void>((res) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          res();
        }, 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          res();
        });
      });
    }
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
