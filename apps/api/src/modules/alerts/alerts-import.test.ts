import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { alerts } from '../../db/schema/index.js';
import { QUEUE } from '../../lib/queue.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { uploadGenerated } from '../../test/uploads.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
});

afterAll(async () => {
  await t?.close();
});

it('evaluates the alert rules in a job after an invoice is imported', async () => {
  const token = await t.login(DEMO.companyAdmin);
  // Seeded: several of its 12 subscriptions roam outside the EU (any such cost is an alert).
  const invoice = await uploadGenerated(t, token, {
    operator: 'elisa',
    subscriptions: 12,
    seed: 2601,
    buyer: BUYER.pohjola,
  });
  expect(invoice.uploadState).toBe('uploaded');
  const id = invoice.id as number;
  // The invoice's own evaluation, sent after its import committed, done.
  const done = async () => {
    const { rows } = await t.deps.database.executeSql(
      `select 1 from pgboss.job where name = $1 and (data->>'invoiceId')::int = $2 and state = 'completed'`,
      [QUEUE.evaluateAlerts, id],
    );
    return rows.length > 0;
  };
  const until = Date.now() + 30_000;
  while (!(await done()) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  const raised = await t.deps.database.db.select().from(alerts).where(eq(alerts.invoiceId, id));
  expect(raised.length).toBeGreaterThan(0);
  expect(raised.every((a) => a.rule === 'roaming' || a.rule === 'service_numbers')).toBe(true);
  const list = await t.inject({ method: 'GET', url: '/api/alerts', token });
  expect(list.json().total).toBe(raised.length);
});
