import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { alerts } from '../../db/schema/index.js';
import { startJobs } from '../../jobs/index.js';
import { QUEUE } from '../../lib/queue.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { generateInvoiceOutOfProcess, settled, uploadFiles } from '../../test/uploads.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await startJobs(t.deps, { schedules: false });
});

afterAll(async () => {
  await t?.close();
});

it('evaluates the alert rules in a job after an invoice is imported', async () => {
  const token = await t.login(DEMO.companyAdmin);
  // Seeded: several of its 12 subscriptions roam outside the EU (any such cost is an alert).
  const pdf = generateInvoiceOutOfProcess({
    operator: 'elisa',
    subscriptions: 12,
    seed: 2601,
    buyer: BUYER.pohjola,
  });
  const res = await uploadFiles(t, token, [{ name: 'elisa.pdf', data: pdf }]);
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().results[0].invoiceId as number;
  expect((await settled(t, token, id)).uploadState).toBe('uploaded');
  const until = Date.now() + 30_000;
  while ((await t.deps.jobs.pending(QUEUE.evaluateAlerts)) > 0 && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  const raised = await t.deps.database.db.select().from(alerts).where(eq(alerts.invoiceId, id));
  expect(raised.length).toBeGreaterThan(0);
  expect(raised.every((a) => a.rule === 'roaming' || a.rule === 'service_numbers')).toBe(true);
  const list = await t.inject({ method: 'GET', url: '/api/alerts', token });
  expect(list.json().total).toBe(raised.length);
});
