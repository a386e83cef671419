import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { DEFAULT_CLIENT_USER_PERMISSIONS, message } from '@kulu/shared';
import { clients, costCenters, subCompanies } from '../../db/schema/index.js';
import { clientWing, demoUser, expectEachStatus, loggedFor } from '../../test/client-wing.js';
import { activateByMail, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { insertInvoice } from '../../test/import-parsed.js';
import { expectActivationMailed, expectDeactivateThenActivate } from '../../test/user-accounts.js';

let t: TestApp;
let admin: string, consultant: string, companyAdmin: string, clientUser: string, otherCompanyAdmin: string;
let clientId: number, otherClientId: number;
/** This client's sub-companies (Helsinki, Tampere) and a cost center of Helsinki. */
let helsinki: number;
let tampere: number;
let helsinkiCostCenter: number;
let otherSubId: number;
let otherCostCenter: number;
let otherUserId: number;
const password = 'Uusi!Salasana1';

/** One invoice row of a sub-company (enough for the invoice list). */
async function invoiceOf(cId: number, subCompanyId: number, tag: string) {
  return insertInvoice(t, {
    clientId: cId,
    subCompanyId,
    fileName: `${tag}.pdf`,
    fileSha256: `client-users-${tag}`,
    batchId: 'client-users',
    uploadState: 'failed',
  });
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, consultant, companyAdmin, clientUser, otherCompanyAdmin, clientId, otherClientId } =
    await clientWing(t));
  otherUserId = (await demoUser(t, DEMO.otherClientUser)).id;
  const db = t.deps.database.db;
  const subs = await db
    .select({ id: subCompanies.id, name: subCompanies.name })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, clientId))
    .orderBy(asc(subCompanies.name));
  helsinki = subs.find((s) => s.name.endsWith('Helsinki'))!.id;
  tampere = subs.find((s) => s.name.endsWith('Tampere'))!.id;
  [{ id: helsinkiCostCenter }] = await db
    .select({ id: costCenters.id })
    .from(costCenters)
    .where(eq(costCenters.subCompanyId, helsinki))
    .limit(1);
  [{ id: otherSubId }] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, otherClientId))
    .limit(1);
  [{ id: otherCostCenter }] = await db
    .select({ id: costCenters.id })
    .from(costCenters)
    .where(eq(costCenters.clientId, otherClientId))
    .limit(1);
});
afterAll(async () => {
  await t?.close();
});

const base = (id = clientId) => `/api/clients/${id}/users`;
const add = (payload: object, token = admin) => t.inject({ method: 'POST', url: base(), token, payload });
/** The new user's own fields, as sent and as answered. */
const LIISA = {
  name: 'Liisa Nieminen',
  email: 'liisa.nieminen@pohjolarakennus.fi',
  address: 'Mannerheimintie 1, 00100 Helsinki',
  contactNumber: '+358 40 123 4567',
  country: 'Finland',
  status: 'active',
};
const person = (extra: Record<string, unknown> = {}) => ({
  ...LIISA,
  subCompanyIds: [helsinki],
  costCenterIds: [],
  permissions: ['general', 'dashboards', 'invoices.upload'],
  ...extra,
});

describe('additional users', () => {
  let newId: number;

  it('lists the client users of the client, not its admin nor other clients’ users', async () => {
    const res = await t.inject({ method: 'GET', url: base(), token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((u: { email: string }) => u.email)).toEqual([DEMO.clientUser]);
    expect(body.items[0]).toMatchObject({ clientId, status: 'active', activated: true });
    expect(body.items[0].subCompanies.map((s: { id: number }) => s.id)).toEqual([tampere]);
  });

  it('adds a user with every field, logs it and mails the activation link after the commit', async () => {
    const before = t.mails.length;
    const res = await add(person());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ code: 'clientUserAdded', message: message('clientUserAdded', 'en') });
    const { user } = res.json();
    newId = user.id;
    expect(user).toMatchObject({
      clientId,
      ...LIISA,
      activated: false,
      subCompanies: [{ id: helsinki, name: 'Pohjola Rakennus Helsinki' }],
      costCenters: [],
      permissions: ['general', 'dashboards', 'invoices.upload'],
    });
    await expectActivationMailed(t, before, 'liisa.nieminen@pohjolarakennus.fi', {
      entity: 'clientUser',
      id: newId,
    });

    // Not activated yet: the login says so (after the password check).
    const login = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: 'liisa.nieminen@pohjolarakennus.fi', password },
    });
    expect(login.statusCode).toBe(400);
  });

  it('lets the new user set a password with the link, log in and see only their sub-company’s invoices', async () => {
    const mail = t.mails.filter((m) => m.to.includes('liisa.nieminen@pohjolarakennus.fi')).at(-1)!;
    expect((await activateByMail(t, mail, password)).statusCode).toBe(200);
    const token = await t.login('liisa.nieminen@pohjolarakennus.fi', password);

    const mine = await invoiceOf(clientId, helsinki, 'helsinki');
    const notMine = await invoiceOf(clientId, tampere, 'tampere');
    const list = await t.inject({ method: 'GET', url: '/api/invoices?pageSize=200', token });
    expect(list.statusCode).toBe(200);
    const items = list.json().items as Array<{ id: number; subCompanyId: number | null; clientId: number }>;
    expect(items.map((i) => i.id)).toContain(mine);
    expect(items.map((i) => i.id)).not.toContain(notMine);
    expect(items.every((i) => i.clientId === clientId && i.subCompanyId === helsinki)).toBe(true);
    expect((await t.inject({ method: 'GET', url: `/api/invoices/${notMine}`, token })).statusCode).toBe(404);
    // The company admin sees both.
    const all = (await t.inject({ method: 'GET', url: '/api/invoices?pageSize=200', token: companyAdmin }))
      .json()
      .items.map((i: { id: number }) => i.id);
    expect(all).toEqual(expect.arrayContaining([mine, notMine]));
    // A permission not given is refused.
    expect(
      (await t.inject({ method: 'GET', url: '/api/optimization/subscriptions', token })).statusCode,
    ).toBe(403);
  });

  it('refuses an email any user has (any case) with the spec message', async () => {
    for (const email of ['LIISA.nieminen@pohjolarakennus.fi', DEMO.otherCompanyAdmin, DEMO.admin]) {
      const res = await add(person({ email }));
      expect(res.statusCode, email).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'clientUserEmailExists',
        message: 'Client user email already exists',
      });
    }
    const upd = await t.inject({
      method: 'PUT',
      url: `${base()}/${newId}`,
      token: admin,
      payload: person({ email: DEMO.clientUser }),
    });
    expect(upd.statusCode).toBe(409);
    expect(upd.json().code).toBe('clientUserEmailExists');
  });

  it('refuses sub-companies, cost centers and permissions that are not the client’s to have (400)', async () => {
    const cases = [
      [{ subCompanyIds: [otherSubId] }, 'subCompanyIds'],
      [{ subCompanyIds: [2_000_000] }, 'subCompanyIds'],
      [{ costCenterIds: [otherCostCenter] }, 'costCenterIds'],
      // A cost center of Helsinki while only Tampere is chosen.
      [{ subCompanyIds: [tampere], costCenterIds: [helsinkiCostCenter] }, 'costCenterIds'],
      [{ permissions: ['clients.manage'] }, 'permissions'],
      [{ permissions: ['masters.plans'] }, 'permissions'],
      [{ email: 'not-an-email' }, 'email'],
      [{ name: '' }, 'name'],
      [{ status: 'deleted' }, 'status'],
      [{ name: 'A\u0000B' }, undefined],
      [{ subCompanyIds: ['x'] }, undefined],
    ] as const;
    for (const [extra, field] of cases) {
      const res = await add(person({ email: 'new.person@pohjolarakennus.fi', ...extra }));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      if (field) {
        const keys = Object.keys(res.json().fields ?? {}).map((k) => k.split('.')[0]);
        expect(keys, JSON.stringify(extra)).toContain(field);
      }
    }
    const none = await t.inject({
      method: 'GET',
      url: `${base()}?q=new.person`,
      token: admin,
    });
    expect(none.json().total).toBe(0);
  });

  it('gives the default permissions when none are sent, and searches, filters, sorts and pages', async () => {
    const res = await add(
      {
        name: 'Pekka Salo',
        email: 'pekka.salo@pohjolarakennus.fi',
        subCompanyIds: [tampere],
        costCenterIds: [],
      },
      consultant,
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().user.permissions).toEqual([...DEFAULT_CLIENT_USER_PERMISSIONS]);
    const page = await t.inject({
      method: 'GET',
      url: `${base()}?sort=name&order=desc&page=1&pageSize=2`,
      token: admin,
    });
    expect(page.json()).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(page.json().items.map((u: { name: string }) => u.name)).toEqual(['Pekka Salo', 'Mikko Korhonen']);
    const search = await t.inject({ method: 'GET', url: `${base()}?q=NIEMINEN`, token: admin });
    expect(search.json().items.map((u: { name: string }) => u.name)).toEqual(['Liisa Nieminen']);
    const phone = await t.inject({ method: 'GET', url: `${base()}?q=123%204567`, token: admin });
    expect(phone.json().total).toBe(1);
    const bad = await t.inject({ method: 'GET', url: `${base()}?sort=passwordHash`, token: admin });
    expect(bad.statusCode).toBe(400);
  });

  it('updates a user: new limits apply at once (old sessions end)', async () => {
    const token = await t.login('liisa.nieminen@pohjolarakennus.fi', password);
    const res = await t.inject({
      method: 'PUT',
      url: `${base()}/${newId}`,
      token: admin,
      payload: person({
        name: 'Liisa Nieminen-Salo',
        subCompanyIds: [helsinki],
        costCenterIds: [helsinkiCostCenter],
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'clientUserUpdated',
      user: { name: 'Liisa Nieminen-Salo', costCenters: [{ id: helsinkiCostCenter }] },
    });
    expect((await t.inject({ method: 'GET', url: '/api/invoices', token })).statusCode).toBe(401);
  });

  it('deactivates (login refused, sessions end) and activates again', async () => {
    await expectDeactivateThenActivate(
      t,
      admin,
      { url: `${base()}/${newId}`, email: 'liisa.nieminen@pohjolarakennus.fi', password },
      '/api/invoices',
      { deactivated: 'clientUserDeactivated', activated: 'clientUserActivated' },
      async () => {
        const inactive = await t.inject({ method: 'GET', url: `${base()}?status=inactive`, token: admin });
        expect(inactive.json().items.map((u: { id: number }) => u.id)).toEqual([newId]);
      },
    );
    const actions = await loggedFor(t, 'clientUser', newId);
    expect(actions.map((a) => a.action)).toEqual(['create', 'update', 'deactivate', 'activate']);
  });

  it('mails a new activation link when the email of a user not yet activated changes', async () => {
    const created = await add(person({ name: 'Olli Typo', email: 'olli.typo@pohjolarakennus.fi' }));
    const before = t.mails.length;
    const res = await t.inject({
      method: 'PUT',
      url: `${base()}/${created.json().user.id}`,
      token: admin,
      payload: person({ name: 'Olli Oikea', email: 'olli.oikea@pohjolarakennus.fi' }),
    });
    expect(res.statusCode).toBe(200);
    expect(t.mails.slice(before).map((m) => m.to)).toEqual([['olli.oikea@pohjolarakennus.fi']]);
  });

  it('adds users only to a company (409 for a consultant-type client)', async () => {
    const [c] = await t.deps.database.db
      .insert(clients)
      .values({
        type: 'consultant',
        interestStatus: 'consultant',
        companyName: 'Konsulttitoimisto Oy',
        businessId: '7654321-0',
        email: 'info@konsulttitoimisto.fi',
      })
      .returning({ id: clients.id });
    const res = await t.inject({
      method: 'POST',
      url: base(c.id),
      token: admin,
      payload: person({ email: 'x.consultant@kulu.fi', subCompanyIds: [] }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('clientUsersCompanyOnly');
  });
});

describe('additional users: tenancy and permissions', () => {
  it("answers 404 for another client's user through this client", async () => {
    await expectEachStatus(t, admin, 404, [
      ['GET', `${base()}/${otherUserId}`],
      ['PUT', `${base()}/${otherUserId}`, person({ email: 'stolen@x.fi' })],
      ['POST', `${base()}/${otherUserId}/deactivate`],
      ['POST', `${base()}/${otherUserId}/activate`],
    ]);
    // The company admin is not one of the additional users.
    const adminRow = await demoUser(t, DEMO.companyAdmin);
    const res = await t.inject({ method: 'POST', url: `${base()}/${adminRow.id}/deactivate`, token: admin });
    expect(res.statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: base(2_000_000), token: admin })).statusCode).toBe(404);
    // A client out of reach in the path: 404 whatever the body; a bad body on this client's path: the
    // same 400 for any user id (ids can't be probed).
    const foreign = await t.inject({
      method: 'PUT',
      url: `${base(2_000_000)}/${otherUserId}`,
      token: admin,
      payload: { nonsense: 1 },
    });
    expect(foreign.statusCode).toBe(404);
    const bad = await t.inject({
      method: 'PUT',
      url: `${base()}/${otherUserId}`,
      token: admin,
      payload: { nonsense: 1 },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses company admins and client users (403), another client’s admin included', async () => {
    await expectEachStatus(t, [companyAdmin, clientUser, otherCompanyAdmin], 403, [
      ['GET', base()],
      ['POST', base(), person({ email: 'x@y.fi' })],
    ]);
    expect(
      (await t.inject({ method: 'GET', url: base(otherClientId), token: companyAdmin })).statusCode,
    ).toBe(403);
    expect((await t.inject({ method: 'GET', url: base() })).statusCode).toBe(401);
  });
});
