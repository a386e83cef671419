import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { message } from '@kulu/shared';
import { activityLog, clients, portalCredentials, settings, users } from '../../db/schema/index.js';
import { decrypt } from '../../lib/secrets.js';
import {
  activateByMail,
  addActiveContract,
  createTestApp,
  DEMO,
  mailText,
  operatorIdOf,
  type TestApp,
} from '../../test/helpers.js';
import { sendLeadReminders } from './lead-reminders.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

let t: TestApp;
let admin: string;
let consultant: string;
let companyAdmin: string;
const ref: Record<string, number> = {};

type Payload = Record<string, unknown>;
const call = (method: 'GET' | 'POST' | 'PUT', url: string, token = admin, payload?: Payload) =>
  t.inject({ method, url, token, payload });
const get = (url: string, token = admin) => call('GET', url, token);

/** A valid Add Customer body; `n` picks a distinct business id, name and email. */
const BUSINESS_IDS = [
  '1000000-4',
  '1007919-7',
  '1015838-9',
  '1023757-0',
  '1031676-2',
  '1039595-8',
  '1047514-9',
  '1055433-0',
  '1087109-6',
];
const customer = (n: number, extra: Payload = {}): Payload => ({
  kind: 'company',
  companyName: `Testiyhtiö ${n} Oy`,
  businessId: BUSINESS_IDS[n],
  providerAccountId: `ACC-${n}`,
  address: 'Testikatu 1, 00100 Helsinki',
  country: 'Finland',
  adminName: `Testi Käyttäjä ${n}`,
  contactNumber: '0401234567',
  email: `admin${n}@testiyhtio${n}.fi`,
  invoiceUploadMethod: 'manual',
  ...extra,
});
/** The profile fields of a client as PUT takes them back. */
const profileOf = (c: Payload): Payload => {
  const keys = [
    'companyName',
    'businessId',
    'providerAccountId',
    'address',
    'country',
    'operatorId',
    'adminName',
    'contactNumber',
    'email',
    'profileStatus',
    'leadStatus',
    'reminderDate',
    'billingPlanId',
    'invoiceUploadMethod',
    'portalUrl',
    'portalUsername',
  ];
  return Object.fromEntries(keys.map((k) => [k, c[k]]));
};
const logRows = (clientId: number) =>
  t.deps.database.db
    .select()
    .from(activityLog)
    .where(eq(activityLog.clientId, clientId))
    .orderBy(desc(activityLog.id));
const setLanguage = (email: string, languageId: number) =>
  t.deps.database.db.update(users).set({ languageId }).where(eq(users.email, email));
const names = (body: { items: Array<{ companyName: string }> }) => body.items.map((i) => i.companyName);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  consultant = await t.login(DEMO.consultant);
  companyAdmin = await t.login(DEMO.companyAdmin);
  const { db } = t.deps.database;
  for (const c of await db.select({ id: clients.id, name: clients.companyName }).from(clients)) {
    if (c.name.startsWith('Pohjola')) ref.pohjola = c.id;
    if (c.name.startsWith('Saimaan')) ref.saimaa = c.id;
  }
  ref.elisa = await operatorIdOf(t, 'Elisa');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('access', () => {
  it('is closed to a company admin (403) and open to the provider', async () => {
    expect((await get('/api/clients', companyAdmin)).statusCode).toBe(403);
    expect((await get(`/api/clients/${ref.pohjola}`, companyAdmin)).statusCode).toBe(403);
    expect((await call('POST', '/api/clients', companyAdmin, customer(7))).statusCode).toBe(403);
    expect((await get('/api/clients')).statusCode).toBe(200);
  });

  it('keeps assigning companies to the provider admin', async () => {
    expect((await get(`/api/clients/${ref.pohjola}/assigned-companies`, consultant)).statusCode).toBe(403);
  });
});

describe('Client Management list', () => {
  it('shows converted clients by tab, with search, filters, sort and paging', async () => {
    const all = (await get('/api/clients')).json();
    // The two demo companies and the demo consultant firm.
    expect(names(all)).toEqual([
      'Kaarna Mobiilineuvonta Oy',
      'Pohjola Rakennus Oy',
      'Saimaan Logistiikka Oy',
    ]);
    expect(all).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(names((await get('/api/clients?tab=company')).json())).toHaveLength(2);
    expect(names((await get('/api/clients?tab=consultant')).json())).toEqual(['Kaarna Mobiilineuvonta Oy']);
    expect((await get('/api/clients?tab=lead')).json().total).toBe(0);
    expect(names((await get('/api/clients?q=0737546')).json())).toEqual(['Saimaan Logistiikka Oy']);
    expect(names((await get('/api/clients?q=TALOUS@pohjola')).json())).toEqual(['Pohjola Rakennus Oy']);
    expect(names((await get('/api/clients?q=pohjola%25')).json())).toEqual([]);
    expect(names((await get('/api/clients?sort=companyName&order=desc')).json())).toEqual([
      'Saimaan Logistiikka Oy',
      'Pohjola Rakennus Oy',
      'Kaarna Mobiilineuvonta Oy',
    ]);
    const page2 = (await get('/api/clients?pageSize=1&page=2')).json();
    expect(names(page2)).toEqual(['Pohjola Rakennus Oy']);
    expect(page2.total).toBe(3);
    expect((await get('/api/clients?profileStatus=terminated')).json().total).toBe(0);
    expect((await get('/api/clients?invoiceUploadMethod=manual')).json().total).toBeGreaterThan(0);
  });

  it('refuses a wrong tab, sort or filter with 400', async () => {
    await expectEachBadRequest(t, admin, '/api/clients?', [
      'tab=leads',
      'sort=password',
      'profileStatus=gone',
      'leadStatus=warm',
      'page=0',
    ]);
  });
});

describe('Add Customer and the profile', () => {
  it('adds a customer, its first user with an activation mail, and logs it', async () => {
    const before = t.mails.length;
    const res = await call('POST', '/api/clients', admin, customer(0));
    expect(res.statusCode, res.body).toBe(201);
    const { client, code, message: text } = res.json();
    expect(code).toBe('clientAdded');
    expect(text).toBe('Customer added successfully');
    expect(client).toMatchObject({
      kind: 'company',
      type: 'company',
      businessId: '1000000-4',
      providerAccountId: 'ACC-0',
      profileStatus: 'active',
      hasPortalPassword: false,
    });
    ref.added = client.id;
    const [u] = await t.deps.database.db.select().from(users).where(eq(users.email, 'admin0@testiyhtio0.fi'));
    expect(u).toMatchObject({
      clientId: client.id,
      roleId: 3,
      activated: false,
      fullName: 'Testi Käyttäjä 0',
    });
    const mail = t.mails.slice(before).find((m) => m.to.includes('admin0@testiyhtio0.fi'));
    expect(mail && mailText(mail)).toMatch(/activate\?token=/);
    // The activation link lets the user set a password and log in.
    const activated = await activateByMail(t, mail!, 'Uusi!salasana1');
    expect(activated.statusCode, activated.body).toBe(200);
    await t.login('admin0@testiyhtio0.fi', 'Uusi!salasana1');
    const [log] = await logRows(client.id);
    expect(log).toMatchObject({ area: 'clients', action: 'create', entity: 'client', before: null });
    expect((log.after as Payload).companyName).toBe('Testiyhtiö 0 Oy');
    expect((await get(`/api/clients/${client.id}`)).json()).toEqual(client);
  });

  it.each([
    ['business id', { businessId: '0737546-2' }, 'businessIdInUse', 'Business id already in use'],
    ['provider id', { providerAccountId: 'acc-0' }, 'providerIdInUse', 'Provider id already in use'],
    [
      'company name',
      { companyName: 'POHJOLA RAKENNUS OY' },
      'companyNameInUse',
      'Company name already in use',
    ],
    ['client email', { email: 'TALOUS@pohjolarakennus.fi' }, 'emailInUse', 'Email already in use'],
    ['user email', { email: DEMO.clientUser }, 'emailInUse', 'Email already in use'],
  ])('refuses a taken %s with the spec message (409) and writes nothing', async (_w, extra, code, text) => {
    const res = await call('POST', '/api/clients', admin, customer(1, extra));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code, message: text });
    const [hit] = await t.deps.database.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.companyName, 'Testiyhtiö 1 Oy'));
    expect(hit).toBeUndefined();
  });

  it('answers the conflict in Finnish for a Finnish user', async () => {
    await setLanguage(DEMO.admin, 2);
    try {
      const res = await call('POST', '/api/clients', admin, customer(1, { businessId: '0737546-2' }));
      expect(res.json().message).toBe(message('businessIdInUse', 'fi'));
      expect(res.json().message).toBe('Y-tunnus on jo käytössä');
    } finally {
      await setLanguage(DEMO.admin, 1);
    }
  });

  it('checks the business id check digit and the required fields', async () => {
    const bad = await call('POST', '/api/clients', admin, customer(1, { businessId: '1000000-5' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ businessId: 'invalid' });
    const missing = await call(
      'POST',
      '/api/clients',
      admin,
      customer(1, { companyName: '  ', kind: undefined }),
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toMatchObject({ companyName: 'required', kind: 'required' });
    const phone = await call('POST', '/api/clients', admin, customer(1, { contactNumber: '12345' }));
    expect(phone.json().fields).toMatchObject({ contactNumber: 'invalid' });
    const day = await call('POST', '/api/clients', admin, customer(1, { reminderDate: '2026-02-30' }));
    expect(day.json().fields).toMatchObject({ reminderDate: 'invalid' });
    const op = await call('POST', '/api/clients', admin, customer(1, { operatorId: 999999 }));
    expect(op.statusCode).toBe(400);
    expect(op.json().fields).toMatchObject({ operatorId: 'invalid' });
  });

  it('requires the portal username and password for automation and stores the password sealed', async () => {
    const auto = { invoiceUploadMethod: 'automation', operatorId: ref.elisa };
    const none = await call('POST', '/api/clients', admin, customer(2, auto));
    expect(none.statusCode).toBe(400);
    expect(none.json().fields).toMatchObject({ portalUrl: 'required', portalUsername: 'required' });
    const noPassword = await call(
      'POST',
      '/api/clients',
      admin,
      customer(2, { ...auto, portalUrl: 'https://93.184.215.14/portal', portalUsername: 'testi' }),
    );
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json()).toMatchObject({
      code: 'portalCredentialsRequired',
      fields: { portalPassword: 'required' },
    });
    const local = await call(
      'POST',
      '/api/clients',
      admin,
      customer(2, { ...auto, portalUrl: 'https://127.0.0.1/', portalUsername: 'testi', portalPassword: 'p' }),
    );
    expect(local.json().code).toBe('portalUrlNotAllowed');

    const ok = await call(
      'POST',
      '/api/clients',
      admin,
      customer(2, {
        ...auto,
        portalUrl: 'https://93.184.215.14/portal',
        portalUsername: 'testi',
        portalPassword: 'Salainen!1',
      }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const client = ok.json().client;
    expect(client).toMatchObject({
      invoiceUploadMethod: 'automation',
      portalUsername: 'testi',
      hasPortalPassword: true,
    });
    expect(JSON.stringify(client)).not.toContain('Salainen');
    const [cred] = await t.deps.database.db
      .select()
      .from(portalCredentials)
      .where(eq(portalCredentials.clientId, client.id));
    expect(cred.passwordSealed).not.toContain('Salainen');
    expect(decrypt(t.deps.encryptionKey, cred.passwordSealed)).toBe('Salainen!1');
    const [log] = await logRows(client.id);
    expect(JSON.stringify(log)).not.toContain('Salainen');

    // An update without a password keeps the stored one.
    const kept = await call('PUT', `/api/clients/${client.id}`, admin, {
      ...profileOf(client),
      portalUsername: 'testi2',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const [after] = await t.deps.database.db
      .select()
      .from(portalCredentials)
      .where(eq(portalCredentials.clientId, client.id));
    expect(after.username).toBe('testi2');
    expect(decrypt(t.deps.encryptionKey, after.passwordSealed)).toBe('Salainen!1');
  });

  it('updates the profile, terminates, and logs before and after', async () => {
    const before = (await get(`/api/clients/${ref.added}`)).json();
    const res = await call('PUT', `/api/clients/${ref.added}`, admin, {
      ...profileOf(before),
      companyName: 'Testiyhtiö Nolla Oy',
      profileStatus: 'terminated',
      leadStatus: 'cold',
      reminderDate: '2031-05-04',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'clientUpdated',
      message: 'Customer updated successfully',
      client: { companyName: 'Testiyhtiö Nolla Oy', profileStatus: 'terminated', reminderDate: '2031-05-04' },
    });
    const [log] = await logRows(ref.added);
    expect(log).toMatchObject({ action: 'update', entity: 'client' });
    expect((log.before as Payload).companyName).toBe('Testiyhtiö 0 Oy');
    expect((log.after as Payload).profileStatus).toBe('terminated');
    expect(names((await get('/api/clients?profileStatus=terminated')).json())).toEqual([
      'Testiyhtiö Nolla Oy',
    ]);
    // Its own business id, name and email are not conflicts; another client's are.
    const same = await call('PUT', `/api/clients/${ref.added}`, admin, profileOf(res.json().client));
    expect(same.statusCode).toBe(200);
    const taken = await call('PUT', `/api/clients/${ref.added}`, admin, {
      ...profileOf(res.json().client),
      email: 'laskut@saimaanlogistiikka.fi',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('emailInUse');
  });

  it('answers 404 for an unknown client, never 5xx', async () => {
    expect((await get('/api/clients/999999')).statusCode).toBe(404);
    // The profile as PUT takes it (the creation-only fields, kind and first user, are unknown there).
    const res = await call('PUT', '/api/clients/999999', admin, profileOf(customer(3)));
    expect(res.statusCode).toBe(404);
  });
});

describe('Interested Clients', () => {
  const signup = (type: 'company' | 'consultant', n: number) =>
    t.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      payload: {
        type,
        companyName: `Kiinnostunut ${n} Oy`,
        businessId: BUSINESS_IDS[n],
        fullName: `Kiinnostunut Käyttäjä ${n}`,
        email: `kiinnostunut${n}@example.fi`,
        contactNumber: '0401234567',
        password: 'Salasana1!',
      },
    });
  const idOf = async (name: string) =>
    (
      await t.deps.database.db.select({ id: clients.id }).from(clients).where(eq(clients.companyName, name))
    )[0].id;

  it('lists sign-ups apart from the clients, and converting activates, mails and moves them', async () => {
    expect((await signup('company', 4)).statusCode).toBe(201);
    const interested = (await get('/api/clients/interested')).json();
    expect(names(interested)).toContain('Kiinnostunut 4 Oy');
    expect(names((await get('/api/clients')).json())).not.toContain('Kiinnostunut 4 Oy');
    const login = () =>
      t.inject({
        method: 'POST',
        url: '/api/Account/login',
        payload: { email: 'kiinnostunut4@example.fi', password: 'Salasana1!' },
      });
    expect((await login()).json().message).toBe('User is not activated');

    const id = await idOf('Kiinnostunut 4 Oy');
    const before = t.mails.length;
    const res = await call('POST', `/api/clients/${id}/convert`, admin, { to: 'company' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'convertedToCompany',
      message: 'Client converted to a company successfully',
      client: { kind: 'company', type: 'company' },
    });
    expect((await login()).statusCode).toBe(200);
    const mail = t.mails.slice(before).find((m) => m.to.includes('kiinnostunut4@example.fi'));
    // No contract yet: Kulu opens with one, so not "your account has been activated" (issue 37).
    expect(mail && mailText(mail)).toContain('Subject: Kulu: your account is ready');
    expect(mail && mailText(mail)).toContain('your Kulu account for Kiinnostunut 4 Oy is ready');
    expect(mail && mailText(mail)).toContain('contract with the service provider is in force');
    expect(mail && mailText(mail)).not.toMatch(/activated/);
    expect(names((await get('/api/clients?tab=company')).json())).toContain('Kiinnostunut 4 Oy');
    expect(names((await get('/api/clients/interested')).json())).not.toContain('Kiinnostunut 4 Oy');
    const [log] = await logRows(id);
    expect(log).toMatchObject({
      action: 'convert',
      before: { kind: 'not_converted' },
      after: { kind: 'company' },
    });

    const again = await call('POST', `/api/clients/${id}/convert`, admin, { to: 'lead' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('alreadyConverted');
  });

  it('converts to a lead (Finnish message), and a lead later to a company', async () => {
    await signup('company', 5);
    const id = await idOf('Kiinnostunut 5 Oy');
    await setLanguage(DEMO.admin, 2);
    try {
      const res = await call('POST', `/api/clients/${id}/convert`, admin, { to: 'lead' });
      expect(res.json()).toMatchObject({ code: 'convertedToLead', message: 'Asiakas muutettu liidiksi' });
    } finally {
      await setLanguage(DEMO.admin, 1);
    }
    expect(names((await get('/api/clients?tab=lead')).json())).toEqual(['Kiinnostunut 5 Oy']);
    const res = await call('POST', `/api/clients/${id}/convert`, admin, { to: 'company' });
    expect(res.json().client.kind).toBe('company');
  });

  it('refuses a conversion to something else than lead, company or consultant', async () => {
    const res = await call('POST', `/api/clients/${ref.pohjola}/convert`, admin, { to: 'partner' });
    expect(res.statusCode).toBe(400);
  });
});

describe('assign companies', () => {
  let firm: number;
  let firmToken: string;

  beforeAll(async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      payload: {
        type: 'consultant',
        companyName: 'Neuvonta Testi Oy',
        businessId: BUSINESS_IDS[6],
        fullName: 'Konsultti Testi',
        email: 'konsultti@neuvontatesti.fi',
        contactNumber: '0401234567',
        password: 'Salasana1!',
      },
    });
    expect(res.statusCode).toBe(201);
    [{ id: firm }] = await t.deps.database.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.companyName, 'Neuvonta Testi Oy'));
    const converted = await call('POST', `/api/clients/${firm}/convert`, admin, { to: 'consultant' });
    expect(converted.json()).toMatchObject({ code: 'convertedToConsultant', client: { type: 'consultant' } });
    // A consultant firm is a client: without a valid contract its users are locked out.
    await addActiveContract(t, firm);
    firmToken = await t.login('konsultti@neuvontatesti.fi', 'Salasana1!');
  });

  it('shows a consultant with no assigned company nothing', async () => {
    expect((await get('/api/clients', firmToken)).json().total).toBe(0);
    expect((await get(`/api/clients/${ref.pohjola}`, firmToken)).statusCode).toBe(404);
    expect((await get('/api/sub-companies', firmToken)).json()).toEqual([]);
  });

  it('limits the consultant to the assigned companies everywhere', async () => {
    const res = await call('PUT', `/api/clients/${firm}/assigned-companies`, admin, {
      clientIds: [ref.pohjola],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'assignedCompaniesSaved',
      companies: [{ id: ref.pohjola, name: 'Pohjola Rakennus Oy' }],
    });
    expect(names((await get('/api/clients', firmToken)).json())).toEqual(['Pohjola Rakennus Oy']);
    expect((await get(`/api/clients/${ref.pohjola}`, firmToken)).statusCode).toBe(200);
    expect((await get(`/api/clients/${ref.saimaa}`, firmToken)).statusCode).toBe(404);
    const subs = (await get('/api/sub-companies', firmToken)).json() as Array<{ clientId: number }>;
    expect(subs.length).toBeGreaterThan(0);
    expect(subs.every((s) => s.clientId === ref.pohjola)).toBe(true);
    expect((await get(`/api/invoices?clientId=${ref.saimaa}`, firmToken)).statusCode).toBe(404);
    const [log] = await logRows(firm);
    expect(log).toMatchObject({ action: 'assign', before: [], after: [{ id: ref.pohjola }] });
    expect((await get(`/api/clients/${firm}/assigned-companies`)).json().companies).toHaveLength(1);
  });

  it('refuses to assign what is not a company, and to a client that is not a consultant', async () => {
    const self = await call('PUT', `/api/clients/${firm}/assigned-companies`, admin, { clientIds: [firm] });
    expect(self.statusCode).toBe(400);
    expect(self.json().fields).toMatchObject({ clientIds: 'invalid' });
    const unknown = await call('PUT', `/api/clients/${firm}/assigned-companies`, admin, {
      clientIds: [999999],
    });
    expect(unknown.statusCode).toBe(400);
    const company = await call('PUT', `/api/clients/${ref.saimaa}/assigned-companies`, admin, {
      clientIds: [],
    });
    expect(company.statusCode).toBe(409);
    expect(company.json().message).toBe('Companies can be assigned only to a consultant');
    expect(
      (await call('PUT', '/api/clients/999999/assigned-companies', admin, { clientIds: [] })).statusCode,
    ).toBe(404);
    // The earlier assignment is unchanged.
    expect((await get(`/api/clients/${firm}/assigned-companies`)).json().companies).toHaveLength(1);
  });

  it('assigns a customer the consultant adds to that consultant', async () => {
    const res = await call('POST', '/api/clients', firmToken, customer(7, { kind: 'lead' }));
    expect(res.statusCode, res.body).toBe(201);
    expect(names((await get('/api/clients', firmToken)).json())).toContain('Testiyhtiö 7 Oy');
    // Not to anyone else: the provider's own consultant does not see it.
    expect((await get(`/api/clients/${res.json().client.id}`, consultant)).statusCode).toBe(404);
  });

  it("gives the provider's own consultant (no client) the companies assigned personally", async () => {
    const seen = names((await get('/api/clients', consultant)).json());
    expect(seen).toEqual(expect.arrayContaining(['Pohjola Rakennus Oy', 'Saimaan Logistiikka Oy']));
    expect(seen).not.toContain('Neuvonta Testi Oy');
    expect((await get(`/api/clients/${firm}`, consultant)).statusCode).toBe(404);
    const res = await call('POST', '/api/clients', consultant, customer(8, { kind: 'company' }));
    expect(res.statusCode, res.body).toBe(201);
    expect((await get(`/api/clients/${res.json().client.id}`, consultant)).statusCode).toBe(200);
    expect((await get(`/api/clients/${res.json().client.id}`, firmToken)).statusCode).toBe(404);
  });
});

describe('lead reminders', () => {
  it('mails the provider once on the reminder day', async () => {
    const { db } = t.deps.database;
    const [lead] = await db
      .insert(clients)
      .values({
        type: 'company',
        companyName: 'Muistutus Oy',
        businessId: '1063352-2',
        email: 'muistutus@example.fi',
        interestStatus: 'lead',
        leadStatus: 'hot',
        reminderDate: '2031-03-15',
      })
      .returning({ id: clients.id });
    expect(await sendLeadReminders(t.deps, '2031-03-14')).toBe(0);
    const sent = await sendLeadReminders(t.deps, '2031-03-15');
    expect(sent).toBeGreaterThan(0);
    expect(await sendLeadReminders(t.deps, '2031-03-15')).toBe(0);
    const [mark] = await db
      .select()
      .from(settings)
      .where(and(eq(settings.key, `lead-reminder:${lead.id}:2031-03-15`)));
    expect(mark).toBeDefined();
  });
});
