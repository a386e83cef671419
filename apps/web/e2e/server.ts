import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../../../scripts/free-port.js';

/** The repository's root: where `npm start`'s script is. */
export const repoRoot = resolve(import.meta.dirname, '../../..');

/** The marker a finished snapshot holds (prepare-snapshot.ts); a directory without it is not used. */
export const SNAPSHOT_MARKER = '.kulu-e2e-snapshot';

/** GET /api/health's answer: `demo` on a demo install (apps/api/src/modules/health). */
interface Health {
  status: string;
  demo?: 'importing' | 'ready';
}

export interface RunningServer {
  baseUrl: string;
  /**
   * Stops the server as `kill` would (SIGTERM: it closes its jobs and the embedded PostgreSQL shuts
   * down cleanly); after `graceMs` it is killed. True when it ended by itself.
   */
  stop(graceMs?: number): Promise<boolean>;
}

/**
 * Waits until the server answers /api/health and says its first start's demo import is `ready`:
 * every demo invoice imported and its optimization and alerts computed (apps/api/src/demo/
 * import-state.ts); a start on a prepared snapshot finds it ready at once. The tests then read the
 * figures a user would see once the demo is in, instead of racing the import.
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

/**
 * Starts the built server as `npm start` does (serving apps/web/dist) on a free port with demo data
 * in `dataDir`, and resolves once the demo is ready.
 */
export async function startServer(dataDir: string): Promise<RunningServer> {
  const port = await freePort();
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
  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null) return true;
    child.kill('SIGTERM');
    return new Promise<boolean>((res) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        res(false);
      }, graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        res(true);
      });
    });
  };

  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForDemoReady(`${baseUrl}/api/health`, child, () => output);
  } catch (e) {
    await stop();
    throw e;
  }
  return { baseUrl, stop };
}

/**
 * Makes `dir` (new or empty) a snapshot: the built server's first start, with its demo import, in
 * that DATA_DIR, stopped cleanly and marked; resolves with the seconds it took.
 */
export async function prepareSnapshot(dir: string): Promise<number> {
  const dataDir = resolve(dir);
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new Error(`${dataDir} is not empty`);
  mkdirSync(dataDir, { recursive: true });
  const began = Date.now();
  const server = await startServer(dataDir);
  // Marked only after a clean shutdown: a killed server could leave its database mid-write.
  if (!(await server.stop(120_000))) throw new Error('the server did not stop within 120 s');
  writeFileSync(join(dataDir, SNAPSHOT_MARKER), `${new Date().toISOString()}\n`);
  return (Date.now() - began) / 1000;
}
