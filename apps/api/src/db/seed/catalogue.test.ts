import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, isNull } from 'drizzle-orm';
import { ROLE } from '@kulu/shared';
import {
  clientBillingPlans,
  clientContracts,
  costCategories,
  countries,
  currencies,
  operators,
  plans,
  planGroups,
  basePlanGroups,
  users,
} from '../schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { bootstrap } from './bootstrap.js';

describe('seed catalogue with demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ships each operator’s current business plans: at least 5, with speed, list price and EU data', async () => {
    const { db } = t.deps.database;
    const rows = await db
      .select({ plan: plans, operator: operators.name })
      .from(plans)
      .innerJoin(operators, eq(operators.id, plans.operatorId))
      .where(eq(plans.scope, 'general'));
    for (const op of ['Elisa', 'Telia', 'DNA']) {
      const own = rows.filter((r) => r.operator === op).map((r) => r.plan);
      expect(own.length, op).toBeGreaterThanOrEqual(5);
      const speeds = new Set(own.map((p) => p.dataSpeedMbps));
      expect(speeds.size, `${op} speed tiers`).toBeGreaterThanOrEqual(4);
      for (const p of own) {
        expect(Number(p.listPrice), p.name).toBeGreaterThan(0);
        expect(p.planGroupId, p.name).not.toBeNull();
        expect(p.basePlanGroupId, p.name).not.toBeNull();
        expect(p.voiceInEu && p.smsInEu, `${p.name} roams like at home`).toBe(true);
        if (p.dataInEu) expect(Number(p.euDataGb), p.name).toBeGreaterThan(0);
      }
    }
    const elisa1000 = rows.find((r) => r.plan.name === 'Elisa Yritysliittymä 5G (1000M)')!.plan;
    expect(elisa1000).toMatchObject({
      listPrice: '33.90',
      euDataGb: '45.00',
      dataSpeedMbps: 1000,
      unlimited: true,
    });
    const perus = rows.find((r) => r.plan.name === 'Elisa Yritysliittymä Perus')!.plan;
    expect(perus).toMatchObject({
      planType: 'pay_per_use',
      perMinuteCost: '0.0690',
      smsCost: '0.0690',
      dataSlabMb: 1024,
      exceedingDataCost: '0.9900',
      unlimited: false,
    });
    const telia = rows.find((r) => r.plan.name === 'Telia Perus Yrityksille')!.plan;
    expect(telia).toMatchObject({ dataInEu: false, euDataGb: null });
  });

  it('seeds countries, EUR and cost categories covering each zone × SMS, voice and data plus the monthly fee', async () => {
    const { db } = t.deps.database;
    const codes = (await db.select({ code: countries.code, zone: countries.zone }).from(countries)).map(
      (c) => c.code,
    );
    expect(codes).toEqual(
      expect.arrayContaining(['FI', 'SE', 'NO', 'DK', 'EE', 'LV', 'LT', 'DE', 'FR', 'ES']),
    );
    expect(await db.select().from(currencies)).toMatchObject([
      { name: 'Euro', abbreviation: 'EUR', symbol: '€' },
    ]);
    const cats = await db.select().from(costCategories);
    for (const zone of ['domestic', 'nordic_baltic', 'eu'] as const) {
      for (const usage of ['sms', 'voice', 'data'] as const) {
        expect(
          cats.some((c) => c.zone === zone && c.usageType === usage),
          `${zone} × ${usage}`,
        ).toBe(true);
      }
    }
    expect(cats.some((c) => c.usageType === 'monthly_fee')).toBe(true);
    for (const c of cats) expect(c.nameFi.length, c.name).toBeGreaterThan(0);
  });

  it('marks customer contract prices as the demo clients’ own rows and prices their contracts by a billing plan', async () => {
    const { db } = t.deps.database;
    const own = await db.select().from(plans).where(eq(plans.scope, 'customer_specific'));
    expect(own.length).toBeGreaterThanOrEqual(6);
    for (const p of own) {
      expect(p.clientId).not.toBeNull();
      expect(Number(p.contractPrice)).toBeLessThan(Number(p.listPrice));
    }
    const unpriced = await db.select().from(clientContracts).where(isNull(clientContracts.billingPlanId));
    expect(unpriced).toEqual([]);
  });

  it('is idempotent: a second start adds nothing, and rows an admin deleted stay deleted', async () => {
    const { db } = t.deps.database;
    const counts = async () =>
      Promise.all(
        [plans, planGroups, basePlanGroups, costCategories, countries, currencies, clientBillingPlans].map(
          async (tbl) => {
            const [{ n }] = await db.select({ n: count() }).from(tbl);
            return n;
          },
        ),
      );
    const before = await counts();
    await db.delete(countries).where(eq(countries.code, 'US'));
    await bootstrap(t.deps);
    await bootstrap(t.deps);
    const after = await counts();
    expect(after).toEqual(before.map((n, i) => (i === 4 ? n - 1 : n)));
  });
});

describe('seed catalogue without demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      DEMO_DATA: 'false',
      ADMIN_EMAIL: 'root@kulu.fi',
      ADMIN_PASSWORD: 'Root!2026x',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('still ships the market catalogue, but no client’s own rows and no demo billing plans', async () => {
    const { db } = t.deps.database;
    const [{ n: general }] = await db.select({ n: count() }).from(plans).where(eq(plans.scope, 'general'));
    expect(general).toBeGreaterThanOrEqual(15);
    const [{ n: own }] = await db
      .select({ n: count() })
      .from(plans)
      .where(eq(plans.scope, 'customer_specific'));
    expect(own).toBe(0);
    expect(await db.select().from(clientBillingPlans)).toEqual([]);
    const admins = await db.select().from(users).where(eq(users.roleId, ROLE.providerAdmin));
    expect(admins.map((u) => u.email)).toEqual(['root@kulu.fi']);
  });
});
