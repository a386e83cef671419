import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { message } from '@kulu/shared';
import { subCompanies } from '../../db/schema/index.js';
import { clientWing, expectEachStatus, insertBillingPlan, loggedFor } from '../../test/client-wing.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let admin: string, consultant: string, companyAdmin: string, clientUser: string, otherCompanyAdmin: string;
let clientId: number, otherClientId: number;
let otherSubId: number;
let planId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, consultant, companyAdmin, clientUser, otherCompanyAdmin, clientId, otherClientId } =
    await clientWing(t));
  const db = t.deps.database.db;
  [{ id: otherSubId }] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, otherClientId))
    .limit(1);
  planId = await insertBillingPlan(t, {
    name: 'Sub-company test plan',
    costPerPlan: '3.00',
    additionalUsersFee: '1.00',
    onDemandSupportFee: '80.00',
    adminFee: '10.00',
    companyAdditionalUsersFee: '2.00',
  });
});
afterAll(async () => {
  await t?.close();
});

const base = (id = clientId) => `/api/clients/${id}/sub-companies`;
const add = (payload: object, token = admin) => t.inject({ method: 'POST', url: base(), token, payload });

describe('sub-company management', () => {
  it("lists the client's sub-companies with their users", async () => {
    const res = await t.inject({ method: 'GET', url: base(), token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    // The demo client user is limited to one of them (Tampere).
    const tampere = body.items.find((s: { name: string }) => s.name === 'Pohjola Rakennus Tampere');
    expect(tampere).toMatchObject({ clientId, userCount: 1 });
  });

  it('searches, sorts and pages', async () => {
    const res = await t.inject({
      method: 'GET',
      url: `${base()}?q=tampere&sort=name&order=desc&page=1&pageSize=1`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, page: 1, pageSize: 1 });
    expect(res.json().items[0].name).toBe('Pohjola Rakennus Tampere');
    const bad = await t.inject({ method: 'GET', url: `${base()}?sort=password`, token: admin });
    expect(bad.statusCode).toBe(400);
  });

  it('adds one with a billing plan, logs it, and refuses the same name (any case) with the spec message', async () => {
    const res = await add({ name: 'Pohjola Rakennus Oulu', numberOfUsers: '12', billingPlanId: planId });
    expect(res.statusCode).toBe(201);
    const { subCompany } = res.json();
    expect(res.json()).toMatchObject({ code: 'subCompanyAdded', message: message('subCompanyAdded', 'en') });
    expect(subCompany).toMatchObject({
      name: 'Pohjola Rakennus Oulu',
      numberOfUsers: 12,
      billingPlanId: planId,
      billingPlanName: 'Sub-company test plan',
      userCount: 0,
    });
    const logged = await loggedFor(t, 'subCompany', subCompany.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ clientId, action: 'create' });

    const dup = await add({ name: 'pohjola rakennus OULU', numberOfUsers: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'subCompanyNameExists',
      message: 'Sub-company name already exists',
    });

    // The same name in another client is fine: unique within the client only.
    const other = await t.inject({
      method: 'POST',
      url: base(otherClientId),
      token: admin,
      payload: { name: 'Pohjola Rakennus Oulu', numberOfUsers: 0 },
    });
    expect(other.statusCode).toBe(201);
  });

  it('updates one, refusing a name another sub-company has', async () => {
    const list = (await t.inject({ method: 'GET', url: `${base()}?q=Oulu`, token: admin })).json();
    const id = list.items[0].id;
    const taken = await t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: admin,
      payload: { name: 'Pohjola Rakennus Helsinki', numberOfUsers: 3 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('subCompanyNameExists');
    const res = await t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: admin,
      payload: { name: 'Pohjola Rakennus Oulu Oy', numberOfUsers: 3, billingPlanId: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'subCompanyUpdated',
      subCompany: { name: 'Pohjola Rakennus Oulu Oy', numberOfUsers: 3, billingPlanId: null },
    });
  });

  it('validates: name required, number of users a whole number ≥ 0, a billing plan that exists, no NUL', async () => {
    const cases = [
      [{ name: '  ', numberOfUsers: 1 }, 'name', 'required'],
      [{ name: 'X', numberOfUsers: -1 }, 'numberOfUsers', 'invalid'],
      [{ name: 'X', numberOfUsers: 1.5 }, 'numberOfUsers', 'invalid'],
      [{ name: 'X', numberOfUsers: 99_999_999_999 }, 'numberOfUsers', 'invalid'],
      [{ name: 'X\u0000', numberOfUsers: 1 }, 'name', undefined],
    ] as const;
    for (const [payload, field, kind] of cases) {
      const res = await add(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      if (kind) expect(res.json().fields?.[field]).toBe(kind);
    }
    const plan = await add({ name: 'Plan missing', numberOfUsers: 1, billingPlanId: 2_000_000 });
    expect(plan.statusCode).toBe(400);
    expect(plan.json().fields).toEqual({ billingPlanId: 'invalid' });
  });

  it('deletes an unused sub-company and answers 409 for one in use', async () => {
    const created = await add({ name: 'Temporary', numberOfUsers: 0 });
    const id = created.json().subCompany.id;
    const del = await t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: admin });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ code: 'subCompanyDeleted' });
    expect((await t.inject({ method: 'GET', url: `${base()}/${id}`, token: admin })).statusCode).toBe(404);

    const used = (await t.inject({ method: 'GET', url: `${base()}?q=Tampere`, token: admin })).json()
      .items[0];
    const refused = await t.inject({ method: 'DELETE', url: `${base()}/${used.id}`, token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'subCompanyInUse',
      message: message('subCompanyInUse', 'en'),
    });
  });

  it('gives the form its choices', async () => {
    const res = await t.inject({ method: 'GET', url: `${base()}/options`, token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.billingPlans.some((p: { id: number }) => p.id === planId)).toBe(true);
    expect(body.subCompanies.length).toBeGreaterThanOrEqual(2);
    expect(body.costCenters.length).toBeGreaterThan(0);
    expect(body.permissions).toContain('dashboards');
    expect(body.permissions).not.toContain('clients.manage');
  });
});

describe('sub-company tenancy and permissions', () => {
  it("answers 404 for another client's sub-company through this client", async () => {
    await expectEachStatus(t, admin, 404, [
      ['GET', `${base()}/${otherSubId}`],
      ['PUT', `${base()}/${otherSubId}`, { name: 'Stolen', numberOfUsers: 1 }],
      ['DELETE', `${base()}/${otherSubId}`],
    ]);
    // Another client in the path: 404 whatever the body.
    const unknownClient = await t.inject({
      method: 'PUT',
      url: `${base(2_000_000)}/${otherSubId}`,
      token: admin,
      payload: { bad: true },
    });
    expect(unknownClient.statusCode).toBe(404);
    const unknown = await t.inject({ method: 'GET', url: base(2_000_000), token: admin });
    expect(unknown.statusCode).toBe(404);
    const badId = await t.inject({ method: 'GET', url: `${base()}/abc`, token: admin });
    expect(badId.statusCode).toBe(400);
  });

  it('refuses company users (403) and lets a consultant reach only assigned companies', async () => {
    await expectEachStatus(t, [companyAdmin, clientUser], 403, [
      ['GET', base()],
      ['POST', base(), { name: 'X', numberOfUsers: 1 }],
    ]);
    // A company admin of another client cannot reach this client's sub-companies either.
    expect((await t.inject({ method: 'GET', url: base(), token: otherCompanyAdmin })).statusCode).toBe(403);
    // The demo consultant is assigned both demo companies.
    expect((await t.inject({ method: 'GET', url: base(), token: consultant })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: base() })).statusCode).toBe(401);
  });
});
