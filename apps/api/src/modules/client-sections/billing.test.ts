import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { message } from '@kulu/shared';
import { activityLog, clients } from '../../db/schema/index.js';
import { clientWing, FULL_PLAN, insertBillingPlan } from '../../test/client-wing.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let admin: string, consultant: string, companyAdmin: string;
let clientId: number, otherClientId: number;
let planId: number;

const url = (id = clientId) => `/api/clients/${id}/billing`;
const setPlan = (billingPlanId: unknown, token = admin, id = clientId) =>
  t.inject({ method: 'PUT', url: url(id), token, payload: { billingPlanId } });
const planOf = async (id: number) =>
  (await t.deps.database.db.select({ p: clients.billingPlanId }).from(clients).where(eq(clients.id, id)))[0]
    .p;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, consultant, companyAdmin, clientId, otherClientId } = await clientWing(t, {
    consultantKeepsOne: true,
  }));
  planId = await insertBillingPlan(t, { name: 'Billing test plan', ...FULL_PLAN });
});
afterAll(async () => {
  await t?.close();
});

describe('billing management', () => {
  it("answers the client's plan with its fees and the plans to choose from", async () => {
    const res = await t.inject({ method: 'GET', url: url(), token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.clientId).toBe(clientId);
    expect(body.billingPlanId).toBe(await planOf(clientId));
    expect(body.plans.some((p: { id: number }) => p.id === planId)).toBe(true);
  });

  it('puts the client on a plan with the message, logged before and after; none again', async () => {
    const was = await planOf(clientId);
    const res = await setPlan(planId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'clientBillingUpdated',
      message: message('clientBillingUpdated', 'en'),
      billing: {
        billingPlanId: planId,
        plan: {
          name: 'Billing test plan',
          onDemandSupportFee: '90.00',
          adminFee: '25.00',
          setUpFee: '100.00',
        },
      },
    });
    expect(await planOf(clientId)).toBe(planId);
    const profile = await t.inject({ method: 'GET', url: `/api/clients/${clientId}`, token: admin });
    expect(profile.json().billingPlanId).toBe(planId);
    const log = await t.deps.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.area, 'billing'), eq(activityLog.clientId, clientId)));
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action: 'update',
      entity: 'clientBilling',
      before: { billingPlanId: was },
    });
    expect(log[0].after).toMatchObject({ billingPlanId: planId });

    const none = await setPlan(null);
    expect(none.statusCode).toBe(200);
    expect(none.json().billing).toMatchObject({ billingPlanId: null, plan: null });
  });

  it('refuses a body that names no plan or an unknown field, and keeps the plan (issue 23, finding 9)', async () => {
    await setPlan(planId);
    for (const payload of [{}, { billingPlan: null }, { billingPlanId: planId, extra: 1 }]) {
      const res = await t.inject({ method: 'PUT', url: url(), token: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await t.inject({ method: 'GET', url: url(), token: admin })).json().billingPlanId).toBe(planId);
  });

  it('refuses an unknown or malformed plan and leaves the client as it was', async () => {
    await setPlan(planId);
    for (const billingPlanId of [999999, 'abc', -1, 2 ** 40]) {
      const res = await setPlan(billingPlanId);
      expect(res.statusCode, String(billingPlanId)).toBe(400);
      expect(res.json().fields, String(billingPlanId)).toEqual({ billingPlanId: 'invalid' });
    }
    expect(await planOf(clientId)).toBe(planId);
  });

  it('is closed to company users, and another client is 404 to a consultant without it', async () => {
    expect((await t.inject({ method: 'GET', url: url(), token: companyAdmin })).statusCode).toBe(403);
    expect((await setPlan(null, companyAdmin)).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: url(), token: consultant })).statusCode).toBe(200);
    const was = await planOf(otherClientId);
    expect((await t.inject({ method: 'GET', url: url(otherClientId), token: consultant })).statusCode).toBe(
      404,
    );
    const put = await setPlan('x', consultant, otherClientId);
    expect(put.statusCode).toBe(404);
    expect(await planOf(otherClientId)).toBe(was);
    expect((await t.inject({ method: 'GET', url: url(999999), token: admin })).statusCode).toBe(404);
  });
});
