import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  activityLog,
  costCenters,
  invoiceUsers,
  operators,
  subCompanies,
  subscriptions,
  userSubCompanies,
  users,
} from '../../db/schema/index.js';
import { activateByMail, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { clientWing, loggedFor } from '../../test/client-wing.js';
import { multipart } from '../../test/uploads.js';

let t: TestApp;
let admin: string;
let anna: string;
let jussi: string;
let ownClient: number;
let otherClient: number;
let helsinki: { id: number; name: string };
let tampere: { id: number; name: string };
let otherSub: number;
let tampereCenter: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  ({
    admin,
    companyAdmin: anna,
    otherCompanyAdmin: jussi,
    clientId: ownClient,
    otherClientId: otherClient,
  } = await clientWing(t));
  const { db } = t.deps.database;
  const subs = await db
    .select()
    .from(subCompanies)
    .where(eq(subCompanies.clientId, ownClient))
    .orderBy(subCompanies.id);
  [helsinki, tampere] = subs;
  [{ id: otherSub }] = await db.select().from(subCompanies).where(eq(subCompanies.clientId, otherClient));
  [tampereCenter] = await db
    .select({ id: costCenters.id, name: costCenters.name })
    .from(costCenters)
    .where(eq(costCenters.subCompanyId, tampere.id));
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/**
 * The demo client user, limited to one sub-company, given the invoice users' permission: their
 * sign-in and the sub-company they are limited to (inside) and the other (outside).
 */
async function limitedClientUser() {
  const { db } = t.deps.database;
  const [mikko] = await db.select().from(users).where(eq(users.email, DEMO.clientUser));
  await db
    .update(users)
    .set({ permissions: ['general', 'clientMasters.invoiceUsers'] })
    .where(eq(users.id, mikko.id));
  const [limit] = await db.select().from(userSubCompanies).where(eq(userSubCompanies.userId, mikko.id));
  const [inside, outside] = limit.subCompanyId === helsinki.id ? [helsinki, tampere] : [tampere, helsinki];
  return { token: await t.login(DEMO.clientUser), inside, outside };
}

/** Adds an invoice user (as the company admin unless `token`; in `lang` when given). */
const add = (payload: object, token = anna, lang?: string) =>
  t.inject({
    method: 'POST',
    url: '/api/invoice-users',
    token,
    payload,
    headers: lang ? { 'accept-language': lang } : {},
  });
const edit = (id: number, payload: object, token = anna) =>
  t.inject({ method: 'PUT', url: `/api/invoice-users/${id}`, token, payload });

const body = (over: Record<string, unknown> = {}) => ({
  name: 'Liisa Lahtinen',
  phoneNumber: '040 123 4567',
  email: null,
  subCompanyId: null,
  costCenterId: null,
  mobileBenefit: true,
  fiveGPlan: false,
  allowLogin: false,
  permissions: [],
  ...over,
});

describe('invoice users', () => {
  it('adds, lists, updates and deletes a user of the own company, each change logged', async () => {
    const created = await add(body());
    expect(created.statusCode).toBe(201);
    const row = created.json().invoiceUser;
    expect(row).toMatchObject({
      phoneNumber: '+358401234567',
      clientId: ownClient,
      mobileBenefit: true,
      userId: null,
    });
    expect(created.json().message).toBe('User added successfully');

    const list = await t.inject({ method: 'GET', url: '/api/invoice-users?q=lahtinen', token: anna });
    expect(list.json().items.map((i: { id: number }) => i.id)).toEqual([row.id]);

    const updated = await edit(
      row.id,
      body({
        name: 'Liisa Laine',
        subCompanyId: tampere.id,
        costCenterId: tampereCenter.id,
        fiveGPlan: true,
      }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json().invoiceUser).toMatchObject({
      name: 'Liisa Laine',
      subCompanyName: tampere.name,
      costCenterName: tampereCenter.name,
      fiveGPlan: true,
    });

    const filtered = await t.inject({
      method: 'GET',
      url: `/api/invoice-users?subCompanyId=${helsinki.id}&q=liisa`,
      token: anna,
    });
    expect(filtered.json().total).toBe(0);

    const del = await t.inject({ method: 'DELETE', url: `/api/invoice-users/${row.id}`, token: anna });
    expect(del.statusCode).toBe(200);
    const log = await loggedFor(t, 'invoiceUser', row.id);
    expect(log.map((l) => l.action).sort()).toEqual(['create', 'delete', 'update']);
    expect(log.every((l) => l.clientId === ownClient && l.area === 'clientMasters')).toBe(true);
  });

  it('refuses a second user of the same number (409) and a sub-company of another client (400)', async () => {
    const first = await add(body({ phoneNumber: '+358 40 555 0001' }));
    expect(first.statusCode).toBe(201);
    const again = await add(body({ phoneNumber: '0405550001' }), anna, 'fi');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('invoiceUserPhoneExists');
    const foreign = await add(body({ phoneNumber: '0405550002', subCompanyId: otherSub }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fields).toEqual({ subCompanyId: 'invalid' });
    const bad = await add(body({ name: '', phoneNumber: 'abc' }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toMatchObject({ name: 'required', phoneNumber: 'invalid' });
  });

  it('links a user to the subscription of the same number', async () => {
    const { db } = t.deps.database;
    const [op] = await db.select().from(operators).limit(1);
    const [s] = await db
      .insert(subscriptions)
      .values({
        clientId: ownClient,
        phoneNumber: '+358405550099',
        userName: 'Invoice Name',
        operatorId: op.id,
        firstSeenMonth: '2026-01-01',
        lastSeenMonth: '2026-01-01',
      })
      .returning();
    const res = await add(body({ phoneNumber: '040 555 0099' }));
    expect(res.json().invoiceUser.subscriptionId).toBe(s.id);
  });

  it('provider users name the client; another client’s rows answer 404 to a company', async () => {
    const missing = await t.inject({ method: 'GET', url: '/api/invoice-users', token: admin });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ clientId: 'required' });
    const made = await add(
      body({ clientId: otherClient, phoneNumber: '0405550003', subCompanyId: otherSub }),
      admin,
    );
    expect(made.statusCode).toBe(201);
    const id = made.json().invoiceUser.id;
    const listed = await t.inject({
      method: 'GET',
      url: `/api/invoice-users?clientId=${otherClient}`,
      token: admin,
    });
    expect(listed.json().items.some((i: { id: number }) => i.id === id)).toBe(true);

    for (const req of [
      {
        method: 'PUT' as const,
        url: `/api/invoice-users/${id}`,
        payload: body({ phoneNumber: '0405550003' }),
      },
      { method: 'DELETE' as const, url: `/api/invoice-users/${id}` },
      { method: 'GET' as const, url: `/api/invoice-users?clientId=${otherClient}` },
    ]) {
      const res = await t.inject({ ...req, token: anna });
      expect(res.statusCode, req.url).toBe(404);
    }
    // The other company sees its own.
    const own = await t.inject({ method: 'GET', url: '/api/invoice-users', token: jussi });
    expect(own.json().items.some((i: { id: number }) => i.id === id)).toBe(true);
  });

  it('allow login creates a client user limited to the row, mails the activation link, and refuses a used email', async () => {
    const before = t.mails.length;
    const res = await add(
      body({
        phoneNumber: '0405550010',
        email: 'Kalle.Kirjautuja@pohjolarakennus.fi',
        subCompanyId: tampere.id,
        allowLogin: true,
        permissions: ['general', 'dashboards'],
      }),
    );
    expect(res.statusCode).toBe(201);
    const row = res.json().invoiceUser;
    expect(row).toMatchObject({
      allowLogin: true,
      loginStatus: 'invited',
      permissions: ['general', 'dashboards'],
    });
    const { db } = t.deps.database;
    const [u] = await db.select().from(users).where(eq(users.id, row.userId));
    expect(u).toMatchObject({
      email: 'kalle.kirjautuja@pohjolarakennus.fi',
      clientId: ownClient,
      activated: false,
    });
    const limits = await db.select().from(userSubCompanies).where(eq(userSubCompanies.userId, u.id));
    expect(limits.map((l) => l.subCompanyId)).toEqual([tampere.id]);
    const mail = t.mails.slice(before).find((m) => m.to.includes('kalle.kirjautuja@pohjolarakennus.fi'));
    expect(mail).toBeDefined();
    // The link activates the account through the existing flow.
    expect((await activateByMail(t, mail!, 'Uusi#Salasana1')).statusCode).toBe(200);

    const taken = await add(
      body({ phoneNumber: '0405550011', email: DEMO.clientUser, allowLogin: true }),
      anna,
      'en',
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'clientUserEmailExists',
      message: 'Client user email already exists',
    });

    const noEmail = await add(body({ phoneNumber: '0405550012', allowLogin: true }));
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().fields).toEqual({ email: 'required' });

    // Turning login off deactivates the user.
    const off = await edit(
      row.id,
      body({
        phoneNumber: '0405550010',
        email: 'kalle.kirjautuja@pohjolarakennus.fi',
        subCompanyId: tampere.id,
      }),
    );
    expect(off.json().invoiceUser).toMatchObject({ allowLogin: false, loginStatus: 'inactive' });
  });

  it('a client user limited to a sub-company sees and adds only rows of it, and grants no more than they hold', async () => {
    const { token, inside, outside } = await limitedClientUser();
    const [hidden] = await t.deps.database.db
      .insert(invoiceUsers)
      .values({ clientId: ownClient, phoneNumber: '+358405550020', name: 'Piilo', subCompanyId: outside.id })
      .returning();
    const list = await t.inject({ method: 'GET', url: '/api/invoice-users?pageSize=200', token });
    expect(list.statusCode).toBe(200);
    expect(list.json().items.every((i: { subCompanyId: number }) => i.subCompanyId === inside.id)).toBe(true);
    const put = await edit(hidden.id, body({ phoneNumber: '0405550020', subCompanyId: inside.id }), token);
    expect(put.statusCode).toBe(404);
    const noSub = await add(body({ phoneNumber: '0405550021' }), token);
    expect(noSub.json().fields).toEqual({ subCompanyId: 'required' });
    const escalate = await add(
      body({
        phoneNumber: '0405550021',
        subCompanyId: inside.id,
        email: 'uusi.kayttaja@pohjolarakennus.fi',
        allowLogin: true,
        permissions: ['invoices.upload'],
      }),
      token,
    );
    expect(escalate.statusCode).toBe(400);
    expect(escalate.json().fields).toEqual({ permissions: 'invalid' });
  });

  it('a user without the permission gets 403', async () => {
    const token = await t.login(DEMO.otherClientUser);
    const res = await t.inject({ method: 'GET', url: '/api/invoice-users', token });
    expect(res.statusCode).toBe(403);
  });
});

// ---- import ---------------------------------------------------------------------------------------

const upload = (url: string, token: string, name: string, data: Buffer, lang = 'en') => {
  const m = multipart([{ name, data }]);
  return t.inject({
    method: 'POST',
    url,
    token,
    headers: { ...m.headers, 'accept-language': lang },
    payload: m.payload,
  });
};

function thousandRows(): { csv: string; bad: number[] } {
  const lines = ['\uFEFFNimi;Puhelinnumero;Sähköposti;Tytäryhtiö;Kustannuspaikka;Puhelinetu;5G-liittymä'];
  const bad: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const row = i + 2;
    let name = `"Käyttäjä ${i}; ""testi"""`;
    let phone = `050 ${String(1000000 + i)}`;
    let email = `kayttaja${i}@example.fi`;
    if (i === 10) {
      name = '';
      bad.push(row);
    }
    if (i === 500) {
      phone = 'ei numero';
      bad.push(row);
    }
    if (i === 998) {
      email = 'not-an-email';
      bad.push(row);
    }
    lines.push([name, phone, email, helsinki.name, '', i % 2 ? 'kyllä' : 'ei', ''].join(';'));
  }
  return { csv: lines.join('\r\n') + '\r\n', bad };
}

describe('invoice user import', () => {
  it('previews 997 valid rows and the 3 bad ones with row numbers and reasons, imports exactly 997, and a second import updates', async () => {
    const { csv, bad } = thousandRows();
    const file = Buffer.from(csv, 'utf8');
    const count = async () =>
      (
        await t.deps.database.db
          .select({ id: invoiceUsers.id })
          .from(invoiceUsers)
          .where(eq(invoiceUsers.clientId, ownClient))
      ).length;
    const start = await count();

    const preview = await upload('/api/invoice-users/import/preview', anna, 'kayttajat.csv', file);
    expect(preview.statusCode).toBe(200);
    const p = preview.json();
    expect(p).toMatchObject({ rows: 1000, valid: 997, create: 997, update: 0, invalidCount: 3 });
    expect(p.invalid.map((r: { row: number }) => r.row)).toEqual(bad);
    expect(p.invalid[0].errors).toEqual(['Name is required']);
    expect(p.invalid[1].errors).toEqual(['Phone number is invalid!']);
    expect(p.invalid[2].errors).toEqual(['Email is invalid!']);
    expect(p.sample[0]).toMatchObject({
      name: 'Käyttäjä 0; "testi"',
      phoneNumber: '+358501000000',
      mobileBenefit: false,
    });
    expect(await count()).toBe(start); // the preview writes nothing

    // Reasons come in the caller's language.
    await t.deps.database.db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    const fi = await upload('/api/invoice-users/import/preview', anna, 'kayttajat.csv', file);
    await t.deps.database.db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    expect(fi.json().invalid.map((r: { errors: string[] }) => r.errors)).toEqual([
      ['Nimi on pakollinen'],
      ['Puhelinnumero on virheellinen!'],
      ['Sähköposti on virheellinen!'],
    ]);

    const done = await upload('/api/invoice-users/import', anna, 'kayttajat.csv', file);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ created: 997, updated: 0, skipped: 3 });
    expect(await count()).toBe(start + 997);

    const again = await upload('/api/invoice-users/import/preview', anna, 'kayttajat.csv', file);
    expect(again.json()).toMatchObject({ valid: 997, create: 0, update: 997 });
    const second = await upload('/api/invoice-users/import', anna, 'kayttajat.csv', file);
    expect(second.json()).toMatchObject({ created: 0, updated: 997, skipped: 3 });
    expect(await count()).toBe(start + 997);
    const [one] = await t.deps.database.db
      .select()
      .from(invoiceUsers)
      .where(and(eq(invoiceUsers.clientId, ownClient), eq(invoiceUsers.phoneNumber, '+358501000001')));
    expect(one).toMatchObject({
      name: 'Käyttäjä 1; "testi"',
      subCompanyId: helsinki.id,
      mobileBenefit: true,
    });
    const logged = await t.deps.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'import'), eq(activityLog.clientId, ownClient)));
    expect(logged).toHaveLength(2);
  });

  it("refuses a limited user's rows without a sub-company, outside theirs, or naming an unknown cost center", async () => {
    const { token, inside, outside } = await limitedClientUser();
    const csv = [
      'Name;Phone number;Sub-company;Cost center',
      `Oma;040 222 0001;${inside.name};`,
      'Ilman;040 222 0002;;',
      `Muu;040 222 0003;${outside.name};`,
      `Tuntematon;040 222 0004;${inside.name};Ei ole`,
    ].join('\r\n');
    const res = await upload('/api/invoice-users/import/preview', token, 'rajattu.csv', Buffer.from(csv));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().valid).toBe(1);
    expect(res.json().invalid).toEqual([
      { row: 3, errors: ['Sub-company is required'] },
      { row: 4, errors: [`Sub-company "${outside.name}" is outside your sub-companies or cost centers`] },
      { row: 5, errors: ['Cost center "Ei ole" does not exist'] },
    ]);
  });

  it('reads an Excel workbook and a comma separated file, and reports unknown sub-companies and duplicates', async () => {
    const { default: ExcelJS } = await import('exceljs');
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Users');
    sheet.addRow(['Name', 'Phone number', 'Sub-company', 'Cost center', 'Mobile benefit', '5G plan']);
    sheet.addRow(['Excel Eeva', 401112222, tampere.name, tampereCenter.name, 'yes', 'x']);
    sheet.addRow(['Excel Erkki', '040 111 2222', 'Ei ole Oy', '', '', '']);
    sheet.addRow(['Excel Elina', '040 111 3333', helsinki.name, tampereCenter.name, 'maybe', '']);
    const xlsx = Buffer.from(await book.xlsx.writeBuffer());
    const res = await upload('/api/invoice-users/import/preview', anna, 'users.xlsx', xlsx);
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p.valid).toBe(1);
    expect(p.sample[0]).toMatchObject({
      name: 'Excel Eeva',
      phoneNumber: '+358401112222',
      mobileBenefit: true,
      fiveGPlan: true,
    });
    expect(p.invalid).toEqual([
      { row: 3, errors: ['The phone number is also on row 2', 'Sub-company "Ei ole Oy" does not exist'] },
      {
        row: 4,
        errors: [
          `Cost center "${tampereCenter.name}" belongs to another sub-company`,
          'Mobile benefit is invalid!',
        ],
      },
    ]);
    const csv = Buffer.from('name,phone number\r\n"Pilkku, Pekka",0401114444\r\n', 'utf8');
    const c = await upload('/api/invoice-users/import/preview', anna, 'users.csv', csv);
    expect(c.json()).toMatchObject({ valid: 1, sample: [{ name: 'Pilkku, Pekka' }] });
    const latin1 = Buffer.from('Nimi;Puhelinnumero\r\nJärvinen Äijä;0401115555\r\n', 'latin1');
    const l = await upload('/api/invoice-users/import/preview', anna, 'users.csv', latin1);
    expect(l.json().sample[0].name).toBe('Järvinen Äijä');
  });

  it('refuses files it cannot read with a message, never a 5xx', async () => {
    const cases: Array<[string, Buffer, string]> = [
      ['empty.csv', Buffer.alloc(0), 'importEmpty'],
      ['invoice.pdf', Buffer.from('%PDF-1.4\n\u0000\u0001binary'), 'importFileType'],
      [
        'broken.xlsx',
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100, 1)]),
        'importFileType',
      ],
      ['headers.csv', Buffer.from('foo;bar\n1;2\n'), 'importColumnsMissing'],
      ['only-header.csv', Buffer.from('Name;Phone\n\n'), 'importEmpty'],
      ['big.csv', Buffer.alloc(6 * 1024 * 1024, 'a'), 'importTooLarge'],
      [
        'many.csv',
        Buffer.from(['Name;Phone', ...Array.from({ length: 10_001 }, (_, i) => `N;0401${i}`)].join('\n')),
        'importTooManyRows',
      ],
    ];
    for (const [name, data, code] of cases) {
      const res = await upload('/api/invoice-users/import/preview', anna, name, data);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().code, name).toBe(code);
    }
    const none = await t.inject({
      method: 'POST',
      url: '/api/invoice-users/import',
      token: anna,
      payload: {},
    });
    expect(none.statusCode).toBe(400);
  });
});
