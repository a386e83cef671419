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

async function waitForHealth(url: string, child: ChildProcess, log: () => string, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`API exited with ${child.exitCode}:\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`API did not answer ${url} within ${timeoutMs} ms:\n${log()}`);
}

/**
 * Waits until the first start's demo import has settled: the invoices the provider admin sees stop
 * changing (none still in progress) for 15 s. The tests then read the figures a user would see once
 * the demo is in, instead of racing the import (e.g. a default period computed before any invoice).
 */
async function waitForDemoImport(baseUrl: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  const login = await fetch(`${baseUrl}/api/Account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@kulu.fi', password: 'Kulu!2026' }),
  });
  if (!login.ok) throw new Error(`demo admin login answered ${login.status}`);
  const { access_token: token } = (await login.json()) as { access_token: string };
  let last = '';
  let since = Date.now();
  while (Date.now() < deadline) {
    const res = await fetch(`${baseUrl}/api/invoices?pageSize=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { total: number; items: Array<{ uploadState: string }> };
    const state = `${body.total}:${body.items.filter((i) => i.uploadState === 'in_progress').length}`;
    if (state !== last) {
      last = state;
      since = Date.now();
    } else if (body.total > 0 && state.endsWith(':0') && Date.now() - since >= 15_000) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the demo import did not settle within ${timeoutMs} ms (last: ${last})`);
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
  await waitForHealth(`${baseUrl}/api/health`, child, () => output);
  await waitForDemoImport(baseUrl);
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
