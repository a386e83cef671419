import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients, invoices, subscriptions } from '../db/schema/index.js';
import { QUEUE } from '../jobs/queue.js';
import { parseInvoiceHandler } from '../jobs/parse-invoice.js';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { DEMO_MONTHS, demoInvoiceHandler, enqueueDemoInvoices } from './invoices.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('demo invoices', () => {
  it('enqueues 12 months per demo client and operator once, as jobs', async () => {
    const n = await enqueueDemoInvoices(t.deps);
    // Pohjola: Elisa + Telia; Saimaan Logistiikka: DNA.
    expect(n).toBe(3 * DEMO_MONTHS);
    expect(await t.deps.jobs.pending(QUEUE.demoInvoices)).toBe(n);
    expect(await enqueueDemoInvoices(t.deps)).toBe(0);
  });

  it('imports through the real path with the same numbers and users month to month', async () => {
    const { db } = t.deps.database;
    const [client] = await db.select().from(clients).where(eq(clients.businessId, '0737546-2'));
    const upload = demoInvoiceHandler(t.deps);
    const parse = parseInvoiceHandler(t.deps);
    const job = { id: 'x', retryCount: 0, retryLimit: 0 };
    for (const [i, invoiceDate] of ['2026-03-05', '2026-04-05'].entries()) {
      await upload({
        ...job,
        data: {
          businessId: client.businessId,
          operator: 'DNA',
          seed: 4201,
          subscriptions: 24 + i,
          invoiceDate,
        },
      });
    }
    const rows = await db.select().from(invoices).where(eq(invoices.clientId, client.id));
    expect(rows).toHaveLength(2);
    for (const r of rows) await parse({ ...job, data: { invoiceId: r.id } });
    const done = await db.select().from(invoices).where(eq(invoices.clientId, client.id));
    expect(done.map((r) => [r.uploadState, r.source])).toEqual([
      ['uploaded', 'demo'],
      ['uploaded', 'demo'],
    ]);
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, client.id));
    expect(subs).toHaveLength(25);
    expect(subs.filter((s) => s.firstSeenMonth === '2026-03-01')).toHaveLength(24);
    expect(subs.every((s) => s.lastSeenMonth === '2026-04-01')).toBe(true);
  }, 60_000);
});
