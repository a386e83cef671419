import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { message } from '@kulu/shared';
import { subCompanies } from '../../db/schema/index.js';
import { expectEachStatus, insertBillingPlan, loggedFor, useClientWing } from '../../test/client-wing.js';

const wing = useClientWing();
let otherSubId: number;
let planId: number;

beforeAll(async () => {
  const db = wing.t.deps.database.db;
  [{ id: otherSubId }] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, wing.otherClientId))
    .limit(1);
  planId = await insertBillingPlan(wing.t, {
    name: 'Sub-company test plan',
    costPerPlan: '3.00',
    additionalUsersFee: '1.00',
    onDemandSupportFee: '80.00',
    adminFee: '10.00',
    companyAdditionalUsersFee: '2.00',
  });
});

const base = (id = wing.clientId) => `/api/clients/${id}/sub-companies`;
const add = (payload: object, token = wing.admin) =>
  wing.t.inject({ method: 'POST', url: base(), token, payload });

describe('sub-company management', () => {
  it("lists the client's sub-companies with their users", async () => {
    const res = await wing.t.inject({ method: 'GET', url: base(), token: wing.admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    // The demo client user is limited to one of them (Tampere).
    const tampere = body.items.find((s: { name: string }) => s.name === 'Pohjola Rakennus Tampere');
    expect(tampere).toMatchObject({ clientId: wing.clientId, userCount: 1 });
  });

  it('searches, sorts and pages', async () => {
    const res = await wing.t.inject({
      method: 'GET',
      url: `${base()}?q=tampere&sort=name&order=desc&page=1&pageSize=1`,
      token: wing.admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ total: 1, page: 1, pageSize: 1 });
    expect(res.json().items[0].name).toBe('Pohjola Rakennus Tampere');
    const bad = await wing.t.inject({ method: 'GET', url: `${base()}?sort=password`, token: wing.admin });
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
    const logged = await loggedFor(wing.t, 'subCompany', subCompany.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ clientId: wing.clientId, action: 'create' });

    const dup = await add({ name: 'pohjola rakennus OULU', numberOfUsers: 1 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      code: 'subCompanyNameExists',
      message: 'Sub-company name already exists',
    });

    // The same name in another client is fine: unique within the client only.
    const other = await wing.t.inject({
      method: 'POST',
      url: base(wing.otherClientId),
      token: wing.admin,
      payload: { name: 'Pohjola Rakennus Oulu', numberOfUsers: 0 },
    });
    expect(other.statusCode).toBe(201);
  });

  it('updates one, refusing a name another sub-company has', async () => {
    const list = (await wing.t.inject({ method: 'GET', url: `${base()}?q=Oulu`, token: wing.admin })).json();
    const id = list.items[0].id;
    const taken = await wing.t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: wing.admin,
      payload: { name: 'Pohjola Rakennus Helsinki', numberOfUsers: 3 },
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('subCompanyNameExists');
    const res = await wing.t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: wing.admin,
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
    const del = await wing.t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: wing.admin });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ code: 'subCompanyDeleted' });
    expect(
      (await wing.t.inject({ method: 'GET', url: `${base()}/${id}`, token: wing.admin })).statusCode,
    ).toBe(404);

    const used = (
      await wing.t.inject({ method: 'GET', url: `${base()}?q=Tampere`, token: wing.admin })
    ).json().items[0];
    const refused = await wing.t.inject({ method: 'DELETE', url: `${base()}/${used.id}`, token: wing.admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'subCompanyInUse',
      message: message('subCompanyInUse', 'en'),
    });
  });

  it('gives the form its choices', async () => {
    const res = await wing.t.inject({ method: 'GET', url: `${base()}/options`, token: wing.admin });
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
    await expectEachStatus(wing.t, wing.admin, 404, [
      ['GET', `${base()}/${otherSubId}`],
      ['PUT', `${base()}/${otherSubId}`, { name: 'Stolen', numberOfUsers: 1 }],
      ['DELETE', `${base()}/${otherSubId}`],
    ]);
    // Another client in the path: 404 whatever the body.
    const unknownClient = await wing.t.inject({
      method: 'PUT',
      url: `${base(2_000_000)}/${otherSubId}`,
      token: wing.admin,
      payload: { bad: true },
    });
    expect(unknownClient.statusCode).toBe(404);
    const unknown = await wing.t.inject({ method: 'GET', url: base(2_000_000), token: wing.admin });
    expect(unknown.statusCode).toBe(404);
    const badId = await wing.t.inject({ method: 'GET', url: `${base()}/abc`, token: wing.admin });
    expect(badId.statusCode).toBe(400);
  });

  it('refuses company users (403) and lets a consultant reach only assigned companies', async () => {
    await expectEachStatus(wing.t, [wing.companyAdmin, wing.clientUser], 403, [
      ['GET', base()],
      ['POST', base(), { name: 'X', numberOfUsers: 1 }],
    ]);
    // A company admin of another client cannot reach this client's sub-companies either.
    expect(
      (await wing.t.inject({ method: 'GET', url: base(), token: wing.otherCompanyAdmin })).statusCode,
    ).toBe(403);
    // The demo consultant is assigned both demo companies.
    expect((await wing.t.inject({ method: 'GET', url: base(), token: wing.consultant })).statusCode).toBe(
      200,
    );
    expect((await wing.t.inject({ method: 'GET', url: base() })).statusCode).toBe(401);
  });
});
