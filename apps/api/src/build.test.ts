import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from './demo/index.js';
import { BUYER, DEMO } from './test/helpers.js';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types
import { SERVER_ENV, SERVER_NODE_FLAGS } from '../../../scripts/server-runtime.mjs';
import { generateInvoiceOutOfProcess, multipart } from './test/uploads.js';
import { freePort } from '../../../scripts/free-port.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIST = path.join(ROOT, 'apps/api/dist');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every file of the compiled server and what the bundle imports. */
function bundleText(): string {
  const files = fs.readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
  return files.map((f) => fs.readFileSync(path.join(DIST, f), 'utf8')).join('\n');
}

/** Direct children of a process, from /proc (Linux). */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

const procText = (pid: number, file: string) =>
  fs.readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);

// `npm start` as a fresh clone runs it: build (the API; the web build is the browser tests'),
// then plain node on the bundle, in a new data directory with demo data on the embedded database.
describe('the compiled server (npm start)', () => {
  let server: ChildProcess;
  let base: string;
  let dataDir: string;
  let log = '';
  let longInvoice: Buffer;

  async function login(email: string): Promise<string> {
    const res = await fetch(`${base}/api/Account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /**
   * Uploads one file as the company admin (sent again while the company's demo invoices still
   * parse: 409) and waits until it is no longer in progress.
   */
  async function uploadAsCompany(name: string, data: Buffer): Promise<Record<string, unknown>> {
    const token = await login(DEMO.companyAdmin);
    const { headers, payload } = multipart([{ name, data }]);
    let res: Response | undefined;
    for (let i = 0; i < 600; i++) {
      res = await fetch(`${base}/api/invoices`, {
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${token}` },
        body: payload,
      });
      if (res.status !== 409) break;
      await sleep(500);
    }
    expect(res?.status).toBe(200);
    const id = ((await res!.json()) as { results: { invoiceId: number }[] }).results[0].invoiceId;
    let invoice: Record<string, unknown> = {};
    for (let i = 0; i < 1200; i++) {
      invoice = await (
        await fetch(`${base}/api/invoices/${id}`, { headers: { authorization: `Bearer ${token}` } })
      ).json();
      if (invoice.uploadState !== 'in_progress') break;
      await sleep(250);
    }
    return invoice;
  }

  beforeAll(async () => {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), 'api'], {
      encoding: 'utf8',
    });
    expect(built.status, built.stderr).toBe(0);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-start-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = spawn('npm', ['start', '--silent', '--', '--no-web'], {
      cwd: ROOT,
      // Its own process group: whatever runs below npm is stopped with it (afterAll).
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
    });
    // Generated meanwhile (its own node process): 400 subscriptions print on 70 pages, more than the
    // 32 from which the pages are read on worker threads.
    longInvoice = generateInvoiceOutOfProcess({
      operator: 'elisa',
      subscriptions: 400,
      seed: 2201,
      buyer: BUYER.pohjola,
    });
    server.stdout?.on('data', (d) => (log += d));
    server.stderr?.on('data', (d) => (log += d));
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`the server exited:\n${log}`);
      const ok = await fetch(`${base}/api/health`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      if (i > 1200) throw new Error(`no answer from /api/health:\n${log}`);
      await sleep(100);
    }
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      process.kill(-server.pid!, 'SIGKILL');
      await exited;
    }
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('runs JavaScript only: no TypeScript loader, the workspace packages inlined', () => {
    const text = bundleText();
    expect(fs.existsSync(path.join(DIST, 'server.js'))).toBe(true);
    expect(fs.existsSync(path.join(DIST, 'parse-child.js'))).toBe(true);
    expect(fs.existsSync(path.join(DIST, 'migrations/meta/_journal.json'))).toBe(true);
    expect(text).not.toMatch(/from ["']tsx|import\(["']tsx|from ["']@kulu\//);
  });

  it("runs the server in the process npm starts, with the server's memory settings", () => {
    const [only, ...more] = childrenOf(server.pid!);
    expect(more).toEqual([]);
    const argv = procText(only, 'cmdline');
    expect(path.basename(argv[0])).toBe('node');
    expect(argv).toEqual(expect.arrayContaining([...SERVER_NODE_FLAGS, 'scripts/start.mjs']));
    const env = procText(only, 'environ');
    for (const [k, v] of Object.entries(SERVER_ENV)) expect(env).toContain(`${k}=${v}`);
    // No second Node process: the server's own children are its database and parse child only.
    for (const pid of childrenOf(only)) expect(procText(pid, 'cmdline').join(' ')).not.toMatch(/server\.js/);
  });

  it('answers health, logs the demo admin in and parses a demo invoice in its parse child', async () => {
    const health = await (await fetch(`${base}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok' });
    const login = await fetch(`${base}/api/Account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@kulu.fi', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { access_token: string }).access_token;
    // The demo invoices go the real path: generated, uploaded, parsed by dist/parse-child.js.
    let uploaded = 0;
    for (let i = 0; i < 900 && !uploaded; i++) {
      const res = await fetch(`${base}/api/invoices?pageSize=1&uploadState=uploaded`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      uploaded = ((await res.json()) as { total: number }).total;
      if (!uploaded) await sleep(200);
    }
    expect(uploaded, log).toBeGreaterThan(0);
  }, 300_000);

  it('imports a 70-page, 400-subscription invoice (read on worker threads) uploaded by the company', async () => {
    expect(longInvoice.subarray(0, 5).toString()).toBe('%PDF-');
    const invoice = await uploadAsCompany('elisa-400.pdf', longInvoice);
    expect(invoice, log).toMatchObject({
      uploadState: 'uploaded',
      operatorName: 'Elisa',
      errorDetail: null,
      subscriptionCount: 400,
    });
  }, 600_000);

  it('reads Finvoice e-invoices in its parse child: the demo portal’s and one uploaded by the company', async () => {
    const xml = generateInvoiceOutOfProcess(
      { operator: 'telia', subscriptions: 30, seed: 2202, buyer: BUYER.pohjola },
      'finvoice',
    );
    expect(xml.subarray(0, 5).toString()).toBe('<?xml');
    const admin = await login(DEMO.admin);
    // The demo's DNA invoices (Saimaan Logistiikka) arrive from the simulated portal as e-invoices.
    let eInvoices = 0;
    for (let i = 0; i < 900 && !eInvoices; i++) {
      const res = await fetch(`${base}/api/invoices?pageSize=100&uploadState=uploaded`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      const items = ((await res.json()) as { items: Array<{ format: string }> }).items;
      eInvoices = items.filter((r) => r.format === 'finvoice').length;
      if (!eInvoices) await sleep(200);
    }
    expect(eInvoices, log).toBeGreaterThan(0);

    const invoice = await uploadAsCompany('telia-e-invoice.xml', xml);
    expect(invoice, log).toMatchObject({
      uploadState: 'uploaded',
      format: 'finvoice',
      operatorName: 'Telia',
      errorDetail: null,
      subscriptionCount: 30,
    });
  }, 600_000);

  // The web build is found from the bundle (apps/web/dist beside apps/api): where one exists.
  it.runIf(fs.existsSync(path.join(ROOT, 'apps/web/dist/index.html')))('serves the web app', async () => {
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const exited = new Promise<number | null>((r) => server.once('exit', (code) => r(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
