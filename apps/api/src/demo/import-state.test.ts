import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { invoices } from '../db/schema/index.js';
import { startJobs } from '../jobs/index.js';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { IMPORT_QUEUES, importDone } from './import-state.js';
import { startDemo, type DemoRun } from './index.js';

/**
 * GET /api/health's `demo`: a demo install says when its first start's import is done, so that
 * whoever shows the demo (and the browser tests' set-up) waits on it instead of on a quiet spell.
 * The app is a copy of the demo template: the first start's import done (decision 0022).
 */
let t: TestApp;
let run: DemoRun | undefined;
beforeAll(async () => {
  t = await createTestApp({}, { demo: true });
}, 600_000);
afterAll(async () => {
  await t?.close();
  await run?.close();
});

const health = async (app: TestApp) => {
  const res = await app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  return res.json() as { status: string; demo?: string };
};

describe("the first start's demo import", () => {
  it('is not done while an invoice is in progress', async () => {
    const { db } = t.deps.database;
    expect(await importDone(t.deps)).toBe(true);
    const [first] = await db.select({ id: invoices.id }).from(invoices).limit(1);
    await db.update(invoices).set({ uploadState: 'in_progress' }).where(eq(invoices.id, first.id));
    expect(await importDone(t.deps)).toBe(false);
    await db.update(invoices).set({ uploadState: 'uploaded' }).where(eq(invoices.id, first.id));
    expect(await importDone(t.deps)).toBe(true);
  });

  it.each(IMPORT_QUEUES)('is not done while a %s job is queued', async (queue) => {
    // No worker runs here: the job stays queued until the test removes it.
    const id = await t.deps.jobs.send(queue, { clientId: 0, invoiceId: 0 });
    expect(id).toBeTruthy();
    expect(await importDone(t.deps)).toBe(false);
    await t.deps.database.executeSql('delete from pgboss.job where id = $1', [id]);
    expect(await importDone(t.deps)).toBe(true);
  });

  it("answers 'importing' on GET /api/health until the demo runs, then 'ready' once its import is done", async () => {
    expect(await health(t)).toMatchObject({ status: 'ok', demo: 'importing' });
    const logged: string[] = [];
    run = await startDemo(t.deps, { portal: false, log: (msg) => logged.push(msg) });
    // As server.ts wires it.
    t.deps.demoImport = run.importState;
    expect((await health(t)).demo).toBe('importing');
    await startJobs(t.deps, { schedules: false, extensions: [run.jobs] });
    await expect.poll(async () => (await health(t)).demo, { timeout: 30_000 }).toBe('ready');
    const [{ n }] = (await t.deps.database.executeSql('select count(*)::int as n from invoices', []))
      .rows as Array<{ n: number }>;
    expect(logged).toEqual([
      expect.stringMatching(new RegExp(`^demo: import ready after .* \\(invoices: ${n} uploaded\\)$`)),
    ]);
  });
});

describe('an install without demo data', () => {
  it('answers GET /api/health without a demo field', async () => {
    const plain = await createTestApp({
      DEMO_DATA: 'false',
      ADMIN_EMAIL: 'paakayttaja@yritys.fi',
      ADMIN_PASSWORD: 'Vahva!Salasana1',
    });
    try {
      const body = await health(plain);
      expect(body.status).toBe('ok');
      expect(body).not.toHaveProperty('demo');
    } finally {
      await plain.close();
    }
  }, 120_000);
});
