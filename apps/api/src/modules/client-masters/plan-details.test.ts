import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { optimizationRuns, plans, subscriptions } from '../../db/schema/index.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { clientWing, loggedFor } from '../../test/client-wing.js';

let t: TestApp;
let anna: string;
let jussi: string;
let clientId: number;
let subA: number;
let subB: number;
let general: typeof plans.$inferSelect;
let otherGeneral: typeof plans.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  ({ companyAdmin: anna, otherCompanyAdmin: jussi, clientId } = await clientWing(t));
  const { db } = t.deps.database;
  const generals = await db.select().from(plans).where(isNull(plans.clientId)).orderBy(plans.id);
  // Two general plans of one operator for which the client has no own row yet.
  const own = await db
    .select({ name: plans.name, op: plans.operatorId })
    .from(plans)
    .where(eq(plans.clientId, clientId));
  const free = generals.filter(
    (g) => !own.some((o) => o.op === g.operatorId && o.name.toLowerCase() === g.name.toLowerCase()),
  );
  general = free[0];
  otherGeneral = free.find((g) => g.operatorId === general.operatorId && g.id !== general.id)!;
  const rows = await db
    .insert(subscriptions)
    .values(
      ['+358409990001', '+358409990002'].map((phoneNumber) => ({
        clientId,
        phoneNumber,
        userName: 'Laskun Nimi',
        operatorId: general.operatorId,
        currentPlanId: general.id,
        firstSeenMonth: '2026-01-01',
        lastSeenMonth: '2026-01-01',
      })),
    )
    .returning();
  [subA, subB] = rows.map((r) => r.id);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Puts subscription `id` on a plan with a contract price (as the company admin unless `token`). */
const setPlan = (id: number, payload: { planId: number; contractPrice: string | null }, token = anna) =>
  t.inject({ method: 'PUT', url: `/api/plan-details/${id}`, token, payload });

describe('plan details', () => {
  it('lists each subscription with its plan, list price and contract price', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/plan-details?q=4099900', token: anna });
    expect(res.statusCode).toBe(200);
    expect(res.json().items).toEqual([
      expect.objectContaining({
        subscriptionId: subA,
        userName: 'Laskun Nimi',
        planId: general.id,
        planName: general.name,
        listPrice: general.listPrice,
      }),
      expect.objectContaining({ subscriptionId: subB }),
    ]);
    const choices = await t.inject({ method: 'GET', url: `/api/plan-details/${subA}/plans`, token: anna });
    expect(choices.json().map((c: { id: number }) => c.id)).toEqual(
      expect.arrayContaining([general.id, otherGeneral.id]),
    );
  });

  it('sets a contract price on the client’s own row of the plan, for every subscription on it, queues re-optimization and logs', async () => {
    const { db } = t.deps.database;
    const runsBefore = await db
      .select()
      .from(optimizationRuns)
      .where(eq(optimizationRuns.clientId, clientId));
    const res = await setPlan(subA, { planId: general.id, contractPrice: '9,90' });
    expect(res.statusCode).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({
      reoptimization: true,
      planDetail: { planName: general.name, contractPrice: '9.90' },
    });
    expect(saved.planDetail.planId).not.toBe(general.id);
    const [own] = await db.select().from(plans).where(eq(plans.id, saved.planDetail.planId));
    expect(own).toMatchObject({
      clientId,
      scope: 'customer_specific',
      name: general.name,
      listPrice: general.listPrice,
    });
    // The same contract price for the other subscription once it is put on the plan.
    const b = await setPlan(subB, { planId: general.id, contractPrice: '9.90' });
    expect(b.json().planDetail.planId).toBe(own.id);
    const runs = await db.select().from(optimizationRuns).where(eq(optimizationRuns.clientId, clientId));
    expect(runs.length).toBeGreaterThan(runsBefore.length);
    expect(runs.some((r) => r.trigger === 'plans')).toBe(true);
    const log = await loggedFor(t, 'planDetail', subA);
    expect(log).toHaveLength(1);
    expect(log[0].before).toMatchObject({ planId: general.id, contractPrice: general.contractPrice });

    // Another plan of the operator without a contract price: the general row.
    const other = await setPlan(subA, { planId: otherGeneral.id, contractPrice: '' });
    expect(other.json().planDetail).toMatchObject({ planId: otherGeneral.id });
  });

  it('refuses a plan of another operator or client (400), another client’s subscription (404), and a bad price', async () => {
    const { db } = t.deps.database;
    // A general plan of another operator than the subscription's.
    const [wrong] = await db
      .select()
      .from(plans)
      .where(and(isNull(plans.clientId), ne(plans.operatorId, general.operatorId!)))
      .orderBy(plans.id)
      .limit(1);
    expect(wrong, 'the catalogue has plans of several operators').toBeDefined();
    const res = await setPlan(subA, { planId: wrong.id, contractPrice: null });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ planId: 'invalid' });
    const foreign = await setPlan(subA, { planId: general.id, contractPrice: null }, jussi);
    expect(foreign.statusCode).toBe(404);
    const price = await setPlan(subA, { planId: general.id, contractPrice: '-1' });
    expect(price.statusCode).toBe(400);
    expect(price.json().fields).toEqual({ contractPrice: 'invalid' });
  });
});
