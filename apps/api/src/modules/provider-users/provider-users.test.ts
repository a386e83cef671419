import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { message, providerRolePermissions } from '@kulu/shared';
import { clients, users } from '../../db/schema/index.js';
import { activateByMail, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { clientWing, demoUser, expectEachStatus } from '../../test/client-wing.js';
import { expectActivationMailed, expectDeactivateThenActivate } from '../../test/user-accounts.js';

let t: TestApp;
let admin: string;
let consultant: string;
let companyAdmin: string;
let adminId: number;
let companyId: number;
let otherCompanyId: number;
const password = 'Uusi!Salasana1';
const base = '/api/provider-users';

beforeAll(async () => {
  t = await createTestApp();
  ({
    admin,
    consultant,
    companyAdmin,
    clientId: companyId,
    otherClientId: otherCompanyId,
  } = await clientWing(t));
  adminId = (await demoUser(t, DEMO.admin)).id;
});
afterAll(async () => {
  await t?.close();
});

const person = (extra: Record<string, unknown> = {}) => ({
  name: 'Kaisa Konsultti',
  email: 'kaisa.konsultti@kulu.fi',
  contactNumber: '+358 50 765 4321',
  role: 'consultant',
  status: 'active',
  permissions: ['general', 'dashboards', 'clients.manage', 'optimization.view'],
  companyIds: [companyId],
  ...extra,
});

describe('provider user management', () => {
  let newId: number;

  it('lists the provider’s admins and consultants, not client users', async () => {
    const res = await t.inject({ method: 'GET', url: `${base}?sort=email`, token: admin });
    expect(res.statusCode).toBe(200);
    const emails = res.json().items.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining([DEMO.admin, DEMO.consultant]));
    expect(emails).not.toContain(DEMO.companyAdmin);
    expect(emails).not.toContain(DEMO.clientUser);
    const me = res.json().items.find((u: { email: string }) => u.email === DEMO.admin);
    // No list chosen: the whole role set.
    expect(me).toMatchObject({ role: 'admin', status: 'active', activated: true });
    expect(me.permissions).toEqual([...providerRolePermissions('admin')]);
    const roleFilter = await t.inject({ method: 'GET', url: `${base}?role=consultant`, token: admin });
    expect(roleFilter.json().items.every((u: { role: string }) => u.role === 'consultant')).toBe(true);
    const search = await t.inject({ method: 'GET', url: `${base}?q=konsultti`, token: admin });
    expect(search.json().items.map((u: { email: string }) => u.email)).toEqual([DEMO.consultant]);
  });

  it('offers companies (not leads or consultants) and each role’s permissions', async () => {
    const res = await t.inject({ method: 'GET', url: `${base}/options`, token: admin });
    expect(res.statusCode).toBe(200);
    const { companies, permissions } = res.json();
    expect(companies.map((c: { id: number }) => c.id)).toEqual(
      expect.arrayContaining([companyId, otherCompanyId]),
    );
    expect(permissions.admin).toContain('users.manage');
    expect(permissions.consultant).not.toContain('users.manage');
    expect(permissions.consultant).not.toContain('masters.plans');
  });

  it('refuses consultants and company users (403)', async () => {
    await expectEachStatus(t, [consultant, companyAdmin], 403, [
      ['GET', base],
      ['POST', base, person()],
    ]);
  });

  it('adds a consultant with chosen permissions and companies, logs it and mails the activation link', async () => {
    const before = t.mails.length;
    const res = await t.inject({ method: 'POST', url: base, token: admin, payload: person() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'providerUserAdded',
      message: message('providerUserAdded', 'en'),
    });
    const { user } = res.json();
    newId = user.id;
    expect(user).toMatchObject({
      name: 'Kaisa Konsultti',
      email: 'kaisa.konsultti@kulu.fi',
      contactNumber: '+358 50 765 4321',
      role: 'consultant',
      activated: false,
      permissions: ['general', 'dashboards', 'clients.manage', 'optimization.view'],
    });
    expect(user.companies.map((c: { id: number }) => c.id)).toEqual([companyId]);
    await expectActivationMailed(t, before, 'kaisa.konsultti@kulu.fi', { entity: 'providerUser', id: newId });
  });

  it('lets the new consultant activate, log in, see only the assigned company and only the chosen areas', async () => {
    const mail = t.mails.filter((m) => m.to.includes('kaisa.konsultti@kulu.fi')).at(-1)!;
    expect((await activateByMail(t, mail, password)).statusCode).toBe(200);
    const login = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: 'kaisa.konsultti@kulu.fi', password },
    });
    expect(login.statusCode).toBe(200);
    expect([...login.json().acessPermissions].sort()).toEqual(
      ['clients.manage', 'dashboards', 'general', 'optimization.view'].sort(),
    );
    const token = await t.login('kaisa.konsultti@kulu.fi', password);
    const list = await t.inject({ method: 'GET', url: '/api/clients?pageSize=200', token });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((c: { id: number }) => c.id)).toEqual([companyId]);
    expect((await t.inject({ method: 'GET', url: `/api/clients/${otherCompanyId}`, token })).statusCode).toBe(
      404,
    );
    // Not given: invoice upload, reports, optimization marking.
    expect((await t.inject({ method: 'GET', url: '/api/invoices', token })).statusCode).toBe(403);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/api/optimization/mark',
          token,
          payload: { clientId: companyId, subscriptionIds: [1] },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('applies a change at once: the old session ends and the new permissions and companies hold', async () => {
    const old = await t.login('kaisa.konsultti@kulu.fi', password);
    const res = await t.inject({
      method: 'PUT',
      url: `${base}/${newId}`,
      token: admin,
      payload: person({ companyIds: [otherCompanyId], permissions: ['general', 'clients.manage'] }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'providerUserUpdated' });
    expect(res.json().user.companies.map((c: { id: number }) => c.id)).toEqual([otherCompanyId]);
    expect((await t.inject({ method: 'GET', url: '/api/clients', token: old })).statusCode).toBe(401);
    const token = await t.login('kaisa.konsultti@kulu.fi', password);
    const list = await t.inject({ method: 'GET', url: '/api/clients?pageSize=200', token });
    expect(list.json().items.map((c: { id: number }) => c.id)).toEqual([otherCompanyId]);
    expect((await t.inject({ method: 'GET', url: '/api/dashboard/cost-usage', token })).statusCode).toBe(403);
  });

  it('refuses a permission outside the role, companies for an admin, a lead as a company, and a taken email', async () => {
    const bad = async (payload: Record<string, unknown>) => {
      const res = await t.inject({ method: 'POST', url: base, token: admin, payload });
      return { status: res.statusCode, body: res.json() };
    };
    const masters = await bad(person({ email: 'x1@kulu.fi', permissions: ['general', 'masters.plans'] }));
    expect(masters.status).toBe(400);
    expect(masters.body.fields).toMatchObject({ permissions: 'invalid' });
    const unknown = await bad(person({ email: 'x2@kulu.fi', permissions: ['nope'] }));
    expect(unknown.status).toBe(400);
    const adminCompanies = await bad(person({ email: 'x3@kulu.fi', role: 'admin', permissions: undefined }));
    expect(adminCompanies.status).toBe(400);
    expect(adminCompanies.body.fields).toMatchObject({ companyIds: 'invalid' });
    const [lead] = await t.deps.database.db
      .insert(clients)
      .values({
        type: 'company',
        companyName: 'Liidi Oy',
        businessId: '1572860-0',
        email: 'liidi@example.fi',
        interestStatus: 'lead',
      })
      .returning({ id: clients.id });
    const leadCompany = await bad(person({ email: 'x4@kulu.fi', companyIds: [lead.id] }));
    expect(leadCompany.status).toBe(400);
    expect(leadCompany.body.fields).toMatchObject({ companyIds: 'invalid' });
    const taken = await bad(person({ email: DEMO.companyAdmin.toUpperCase() }));
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'userEmailExists', message: message('userEmailExists', 'en') });
    const missing = await bad({ role: 'boss' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields)).toEqual(expect.arrayContaining(['name', 'email', 'role']));
    const count = await t.deps.database.db.select().from(users).where(eq(users.email, 'x1@kulu.fi'));
    expect(count).toHaveLength(0);
  });

  it('adds an admin with the whole role set when no permissions are chosen', async () => {
    const res = await t.inject({
      method: 'POST',
      url: base,
      token: admin,
      payload: person({
        email: 'toinen.admin@kulu.fi',
        role: 'admin',
        permissions: undefined,
        companyIds: [],
      }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().user.permissions).toEqual([...providerRolePermissions('admin')]);
  });

  it('never lets the caller lock themselves out', async () => {
    const self = (payload: Record<string, unknown>) =>
      t.inject({ method: 'PUT', url: `${base}/${adminId}`, token: admin, payload });
    const mine = { name: 'Kulu Admin', email: DEMO.admin, role: 'admin', companyIds: [] };
    for (const payload of [
      { ...mine, status: 'inactive' },
      { ...mine, role: 'consultant' },
      { ...mine, permissions: ['general', 'clients.manage'] },
    ]) {
      const res = await self(payload);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ownAccessLocked' });
    }
    const off = await t.inject({ method: 'POST', url: `${base}/${adminId}/deactivate`, token: admin });
    expect(off.statusCode).toBe(409);
    // Their own name may change; the session stays.
    const ok = await self({ ...mine, name: 'Kulu Pääkäyttäjä' });
    expect(ok.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: base, token: admin })).statusCode).toBe(200);
  });

  it('deactivates (login refused, sessions end) and activates again', async () => {
    await expectDeactivateThenActivate(
      t,
      admin,
      { url: `${base}/${newId}`, email: 'kaisa.konsultti@kulu.fi', password },
      '/api/clients',
      { deactivated: 'providerUserDeactivated', activated: 'providerUserActivated' },
    );
  });

  it('answers 404 for a user that is not the provider’s (a client user, an unknown id)', async () => {
    const clientUserId = (await demoUser(t, DEMO.clientUser)).id;
    for (const id of [clientUserId, 999999]) {
      await expectEachStatus(t, admin, 404, [
        ['GET', `${base}/${id}`],
        ['PUT', `${base}/${id}`, person({ email: 'y@kulu.fi' })],
        ['POST', `${base}/${id}/deactivate`],
      ]);
    }
  });
});
