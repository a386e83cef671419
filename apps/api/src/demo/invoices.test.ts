import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull, or } from 'drizzle-orm';
import { bestPlan, planFromMaster, unused, type RoamingRegion, type UsageMonth } from '@kulu/optimizer';
import {
  clients,
  costCenters,
  invoiceLines,
  invoices,
  operators,
  plans,
  subCompanies,
  subscriptions,
} from '../db/schema/index.js';
import { runFetch } from '../modules/automation/automation.service.js';
import { QUEUE } from '../lib/queue.js';
import { parseInvoiceHandler } from '../modules/invoices/pipeline/parse-invoice.js';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { DEMO_COMPANY, demoRoster } from './company.js';
import { DEMO_CLIENTS } from './data.js';
import { DEMO_MONTHS, demoInvoiceHandler, demoMonths, enqueueDemoInvoices } from './invoices.js';
import { startDemoPortal } from './portal.js';

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
    // Pohjola (the demo company): Elisa + Telia; Saimaan Logistiikka: DNA.
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
    await expectSaimaanCostCenters(client.id, subs);
  }, 60_000);
});

/**
 * Saimaan Logistiikka's invoices print cost-center codes on most subscriptions: the import finds the
 * client's own cost centers by the code and puts each subscription in that one's sub-company, the
 * client user's Lappeenranta among them; no cost center is made up.
 */
async function expectSaimaanCostCenters(clientId: number, subs: Array<typeof subscriptions.$inferSelect>) {
  const { db } = t.deps.database;
  const centers = await db.select().from(costCenters).where(eq(costCenters.clientId, clientId));
  const saimaan = DEMO_CLIENTS.find((c) => c.businessId === '0737546-2')!;
  expect(centers.map((c) => c.name).sort()).toEqual(saimaan.costCenters.map(([n]) => n).sort());
  const centerOf = new Map(centers.map((c) => [c.id, c]));
  const placed = subs.filter((s) => s.costCenterId !== null);
  expect(placed.length).toBeGreaterThan(subs.length * 0.8);
  expect(new Set(placed.map((s) => centerOf.get(s.costCenterId!)!.name))).toEqual(
    new Set(['2001 Kuljetus', '4100 Varasto']),
  );
  for (const s of placed) expect(s.subCompanyId).toBe(centerOf.get(s.costCenterId!)!.subCompanyId);
  const [lappeenranta] = await db
    .select()
    .from(subCompanies)
    .where(eq(subCompanies.name, saimaan.subCompanies[saimaan.user.subCompanyIndex]));
  expect(placed.filter((s) => s.subCompanyId === lappeenranta.id).length).toBeGreaterThan(0);
}

describe('the demo portal (Saimaan Logistiikka, DNA)', () => {
  it('serves the invoices the demo-invoices job would upload, as e-invoices: their cost-center codes place the subscriptions', async () => {
    const { db } = t.deps.database;
    const [client] = await db.select().from(clients).where(eq(clients.businessId, '0737546-2'));
    const [dna] = await db.select().from(operators).where(eq(operators.name, 'DNA'));
    const portal = await startDemoPortal(t.deps);
    try {
      // The newest demo month: its invoice has subscriptions no earlier invoice of this file had.
      const month = demoMonths(t.deps.now()).at(-1)!.invoiceDate.slice(0, 7);
      expect(await runFetch(t.deps, { clientId: client.id, operatorId: dna.id, month })).toBe('succeeded');
      const [fetched] = await db
        .select()
        .from(invoices)
        .where(and(eq(invoices.clientId, client.id), eq(invoices.source, 'automation')));
      await parseInvoiceHandler(t.deps)({
        id: 'x',
        retryCount: 0,
        retryLimit: 0,
        data: { invoiceId: fetched.id },
      });
      const [done] = await db.select().from(invoices).where(eq(invoices.id, fetched.id));
      // As an e-invoice: the Finvoice path runs on the demo's first start.
      expect([done.uploadState, done.errorMessage, done.format]).toEqual(['uploaded', null, 'finvoice']);
      const fresh = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.clientId, client.id), eq(subscriptions.firstSeenMonth, `${month}-01`)));
      expect(fresh.length).toBeGreaterThan(0);
      await expectSaimaanCostCenters(client.id, fresh);
    } finally {
      await portal?.close();
    }
  }, 120_000);
});

/**
 * Usage months of each subscription from its imported invoice lines (the invoice month; quantity +
 * unit + region), the way the optimizer reads them; oldest first, one per invoice it is on.
 */
async function usageBySubscription(db: TestApp['deps']['database']['db'], clientId: number) {
  const rows = await db
    .select({
      subscriptionId: invoiceLines.subscriptionId,
      month: invoices.periodStart,
      category: invoiceLines.category,
      region: invoiceLines.region,
      quantity: invoiceLines.quantity,
      unit: invoiceLines.unit,
    })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .where(eq(invoiceLines.clientId, clientId))
    .orderBy(asc(invoices.periodStart));
  const regionOf: Record<string, RoamingRegion> = { nordic_baltic: 'nordicBaltic', eu: 'eu', world: 'other' };
  const out = new Map<number, Map<string, UsageMonth>>();
  for (const r of rows) {
    if (r.subscriptionId === null || r.month === null) continue;
    const months = out.get(r.subscriptionId) ?? new Map<string, UsageMonth>();
    out.set(r.subscriptionId, months);
    const u = months.get(r.month) ?? {
      voiceMinutes: 0,
      sms: 0,
      dataMb: 0,
      roamingDataMb: {},
      roamingMinutes: {},
    };
    months.set(r.month, u);
    const q = Number(r.quantity ?? 0);
    const roaming = r.region && r.region !== 'domestic' ? regionOf[r.region] : null;
    if (r.category === 'voice' && r.unit === 'min') {
      if (roaming) u.roamingMinutes![roaming] = (u.roamingMinutes![roaming] ?? 0) + q;
      else u.voiceMinutes += q;
    } else if (r.category === 'sms' && !roaming) u.sms += q;
    else if (r.category === 'data' && r.unit === 'mb') {
      if (roaming) u.roamingDataMb![roaming] = (u.roamingDataMb![roaming] ?? 0) + q;
      else u.dataMb += q;
    }
  }
  return out;
}

describe('the demo company (Pohjola Rakennus Oy)', () => {
  // What a demo install's first start imported: its demo-invoices worker generated and uploaded each
  // month's invoice (demoInvoiceHandler) and the parse jobs read them. A copy of the demo template,
  // where that import ran once for the run (test/template.ts `importDemo`, decision 0022).
  let d: TestApp;
  beforeAll(async () => {
    d = await createTestApp({}, { demo: true });
  }, 600_000);
  afterAll(async () => {
    await d?.close();
  });

  it('imports ≥150 subscriptions on known plans across sub-companies and cost centers, with the findings by design', async () => {
    const { db } = d.deps.database;
    const [client] = await db.select().from(clients).where(eq(clients.businessId, '2345678-0'));
    const done = await db.select().from(invoices).where(eq(invoices.clientId, client.id));
    expect(done).toHaveLength(2 * DEMO_MONTHS);
    expect(done.map((r) => [r.uploadState, r.errorMessage, r.source])).toEqual(
      done.map(() => ['uploaded', null, 'demo']),
    );
    expect(new Set(done.map((r) => r.customerName))).toEqual(new Set(['Pohjola Rakennus Oy']));

    // ≥150 subscriptions, every one on a plan of the plan master, over 2 sub-companies and 5 cost centers
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, client.id));
    expect(subs.length).toBeGreaterThanOrEqual(150);
    expect(subs.filter((s) => s.currentPlanId === null)).toEqual([]);
    expect(new Set(subs.map((s) => s.subCompanyId)).size).toBeGreaterThanOrEqual(2);
    expect(new Set(subs.map((s) => s.costCenterId)).size).toBeGreaterThanOrEqual(4);
    expect(subs.filter((s) => s.subCompanyId === null || s.costCenterId === null)).toEqual([]);
    const centers = await db.select().from(costCenters).where(eq(costCenters.clientId, client.id));
    // the printed codes found the company's own cost centers: none made up by the import
    expect(centers.map((c) => c.name).sort()).toEqual(DEMO_CLIENTS[0].costCenters.map(([n]) => n).sort());

    // The optimizer on the imported data finds exactly the findings the demo was made with.
    const planRows = await db
      .select()
      .from(plans)
      .where(or(isNull(plans.clientId), eq(plans.clientId, client.id)));
    const usage = await usageBySubscription(db, client.id);
    const designed = new Map(
      DEMO_COMPANY.flatMap((plan) => demoRoster(plan, DEMO_MONTHS).map((s) => [s.phone, s] as const)),
    );
    const found: Record<string, number> = {};
    const wrong: string[] = [];
    for (const s of subs) {
      const ofOperator = planRows.filter((p) => p.operatorId === s.operatorId).map((p) => planFromMaster(p));
      const sub = { id: s.id, currentPlanId: s.currentPlanId!, months: [...usage.get(s.id)!.values()] };
      const idle = unused(sub, client.unusedMonthCount, ofOperator);
      const best = idle ? null : bestPlan(sub, ofOperator, { months: client.optimizationMonths });
      const got = idle ? 'unused' : best!.bestPlanId === best!.currentPlanId ? 'none' : best!.reason.code;
      found[got] = (found[got] ?? 0) + 1;
      const want = designed.get(s.phoneNumber)!.finding;
      const expected = {
        none: 'none',
        unused: 'unused',
        oversized: 'speed_oversized',
        payPerUse: 'usage_charges',
        euUnused: 'eu_allowance_unused',
      }[want];
      if (got !== expected) wrong.push(`${s.phoneNumber} ${s.userName}: designed ${want}, found ${got}`);
    }
    expect(wrong).toEqual([]);
    expect(found.speed_oversized).toBeGreaterThanOrEqual(15);
    expect(found.unused).toBeGreaterThanOrEqual(5);
    expect(found.usage_charges).toBeGreaterThanOrEqual(1);
    expect(found.none).toBeGreaterThan(subs.length / 2);
  }, 120_000);
});
