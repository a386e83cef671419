import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { businessDateTime, helsinkiDay } from '@kulu/shared';
import { activityLog, users } from '../../db/schema/index.js';
import { logActivity } from '../../lib/activity-log.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { getWorkbook } from '../../test/workbook.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

let t: TestApp;
let admin: string;
let consultant: string;
let companyAdmin: string;
let adminId: number;
let consultantId: number;
let pohjola: number;
let saimaa: number;
const url = '/api/reports/activity-log';

const userOf = async (email: string) =>
  (await t.deps.database.db.select().from(users).where(eq(users.email, email)))[0];

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  consultant = await t.login(DEMO.consultant);
  companyAdmin = await t.login(DEMO.companyAdmin);
  adminId = (await userOf(DEMO.admin)).id;
  consultantId = (await userOf(DEMO.consultant)).id;
  pohjola = (await userOf(DEMO.companyAdmin)).clientId!;
  saimaa = (await userOf(DEMO.otherCompanyAdmin)).clientId!;
  // Changes by two people on two clients: the admin adds a sub-company to each, the consultant one.
  const add = async (token: string, clientId: number, name: string) => {
    const res = await t.inject({
      method: 'POST',
      url: `/api/clients/${clientId}/sub-companies`,
      token,
      payload: { name, numberOfUsers: 3 },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  await add(admin, pohjola, 'Lokitesti Oulu');
  await add(admin, saimaa, 'Lokitesti Kotka');
  await add(consultant, pohjola, 'Lokitesti Turku');
});
afterAll(async () => {
  await t?.close();
});

type Entry = { userId: number; clientId: number; area: string; action: string; after: { name?: string } };

describe('activity log report', () => {
  it('lists who changed what and when, newest first, with the row after and totals', async () => {
    const res = await t.inject({ method: 'GET', url: `${url}?pageSize=200`, token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBeGreaterThanOrEqual(3);
    expect(body.totals.entries).toBe(body.total);
    const names = body.items.map((e: Entry) => e.after?.name);
    // Newest first.
    expect(names.indexOf('Lokitesti Turku')).toBeLessThan(names.indexOf('Lokitesti Oulu'));
    const turku = body.items.find((e: Entry) => e.after?.name === 'Lokitesti Turku');
    expect(turku).toMatchObject({
      userId: consultantId,
      userName: 'Laura Nieminen',
      clientId: pohjola,
      clientName: 'Pohjola Rakennus Oy',
      action: 'create',
      before: null,
    });
  });

  it('names the thing of each entry instead of its id, and never lists ids or timestamps among the changes', async () => {
    const { db } = t.deps.database;
    const contract = {
      id: 3,
      clientId: pohjola,
      status: 'active',
      startDate: '2026-01-01',
      endDate: '2027-12-31',
      numberOfPlans: 10,
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-02T10:00:00.000Z',
    };
    await logActivity(db, {
      userId: adminId,
      clientId: pohjola,
      area: 'contracts',
      action: 'update',
      entity: 'contract',
      entityId: 3,
      before: contract,
      after: { ...contract, numberOfPlans: 12, updatedAt: '2026-03-01T08:00:00.000Z' },
    });
    const person = { id: 8, clientId: pohjola, name: 'Liisa Lokinen', email: 'liisa.lokinen@example.com' };
    await logActivity(db, {
      userId: adminId,
      clientId: pohjola,
      area: 'clients',
      action: 'create',
      entity: 'clientUser',
      entityId: 8,
      after: { ...person, subCompanyIds: [1], createdAt: '2026-03-01T08:00:00.000Z' },
    });
    const items = (
      await t.inject({ method: 'GET', url: `${url}?clientId=${pohjola}&pageSize=200`, token: admin })
    ).json().items;
    const of = (entity: string) => items.find((e: { entity: string }) => e.entity === entity);
    expect(of('contract').entityLabel).toBe('Pohjola Rakennus Oy, 2026-01-01 – 2027-12-31');
    expect(of('clientUser').entityLabel).toBe('Liisa Lokinen <liisa.lokinen@example.com>');
    expect(items.find((e: Entry) => e.after?.name === 'Lokitesti Turku').entityLabel).toBe('Lokitesti Turku');
    // What changed is the number of plans: no id, creation or update time among the fields.
    expect(of('contract').after).toEqual({
      status: 'active',
      startDate: '2026-01-01',
      endDate: '2027-12-31',
      numberOfPlans: 12,
    });
    expect(Object.keys(of('contract').before)).not.toContain('updatedAt');
    expect(of('clientUser').after).toEqual({ name: 'Liisa Lokinen', email: 'liisa.lokinen@example.com' });
    for (const e of items)
      for (const row of [e.before, e.after])
        for (const field of Object.keys(row ?? {})) expect(field).not.toMatch(/^id$|Ids?$|At$/);
  });

  it('filters by user, client, area and days', async () => {
    const byUser = (
      await t.inject({ method: 'GET', url: `${url}?userId=${consultantId}`, token: admin })
    ).json();
    expect(byUser.items.length).toBeGreaterThanOrEqual(1);
    expect(byUser.items.every((e: Entry) => e.userId === consultantId)).toBe(true);
    expect(byUser.totals.users).toBe(1);

    const byClient = (
      await t.inject({ method: 'GET', url: `${url}?clientId=${saimaa}`, token: admin })
    ).json();
    expect(byClient.items.map((e: Entry) => e.after?.name)).toContain('Lokitesti Kotka');
    expect(byClient.items.every((e: Entry) => e.clientId === saimaa)).toBe(true);

    const both = (
      await t.inject({ method: 'GET', url: `${url}?userId=${adminId}&clientId=${pohjola}`, token: admin })
    ).json();
    expect(both.items.map((e: Entry) => e.after?.name)).toEqual(expect.arrayContaining(['Lokitesti Oulu']));
    expect(both.items.map((e: Entry) => e.after?.name)).not.toContain('Lokitesti Turku');

    const area = byUser.items[0].area as string;
    const byArea = (await t.inject({ method: 'GET', url: `${url}?area=${area}`, token: admin })).json();
    expect(byArea.items.every((e: Entry) => e.area === area)).toBe(true);

    const today = helsinkiDay(new Date());
    const todays = (
      await t.inject({ method: 'GET', url: `${url}?from=${today}&to=${today}`, token: admin })
    ).json();
    expect(todays.total).toBeGreaterThanOrEqual(3);
    const later = (await t.inject({ method: 'GET', url: `${url}?from=2099-01-01`, token: admin })).json();
    expect(later).toMatchObject({ items: [], total: 0, totals: { entries: 0, users: 0, clients: 0 } });
  });

  it('filters by business days in Europe/Helsinki, not by UTC days', async () => {
    // 00:30 on 15 January in Helsinki (22:30 UTC on the 14th) and 23:30 on 15 July (20:30 UTC).
    await t.deps.database.db.insert(activityLog).values([
      { at: new Date('2020-01-14T22:30:00Z'), area: 'daytest', action: 'winter', entity: 'x' },
      { at: new Date('2020-07-15T20:30:00Z'), area: 'daytest', action: 'summer', entity: 'x' },
    ]);
    const actions = async (from: string, to: string) =>
      (await t.inject({ method: 'GET', url: `${url}?area=daytest&from=${from}&to=${to}`, token: admin }))
        .json()
        .items.map((e: Entry) => e.action);
    expect(await actions('2020-01-15', '2020-01-15')).toEqual(['winter']);
    expect(await actions('2020-01-14', '2020-01-14')).toEqual([]);
    expect(await actions('2020-07-15', '2020-07-15')).toEqual(['summer']);
    expect(await actions('2020-07-16', '2020-07-16')).toEqual([]);
  });

  it('offers the users, clients and areas that have entries', async () => {
    const res = await t.inject({ method: 'GET', url: `${url}/options`, token: admin });
    expect(res.statusCode).toBe(200);
    const { users: who, clients, areas } = res.json();
    expect(who.map((u: { id: number }) => u.id)).toEqual(expect.arrayContaining([adminId, consultantId]));
    expect(clients.map((c: { id: number }) => c.id)).toEqual(expect.arrayContaining([pohjola, saimaa]));
    expect(areas.length).toBeGreaterThanOrEqual(1);
  });

  it('is for the provider admin only (403 for a consultant and a company admin)', async () => {
    for (const token of [consultant, companyAdmin]) {
      for (const path of [url, `${url}/options`, `${url}/export`])
        expect((await t.inject({ method: 'GET', url: path, token })).statusCode).toBe(403);
    }
  });

  it('refuses bad filters with 400', async () => {
    await expectEachBadRequest(t, admin, `${url}?`, [
      'from=2026-02-30',
      'from=2026-05-01&to=2026-04-01',
      'area=%3Cscript%3E',
      'userId=0',
      'sort=nope',
    ]);
  });

  it('exports exactly the filtered entries as a workbook with a frozen header row', async () => {
    const list = (
      await t.inject({ method: 'GET', url: `${url}?clientId=${pohjola}&pageSize=200`, token: admin })
    ).json();
    const { wb } = await getWorkbook(t, `${url}/export?clientId=${pohjola}`, admin);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Activity log');
    expect(ws.getRow(1).getCell(2).value).toBe('User');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.rowCount - 1).toBe(list.total);
    const clientsColumn = new Set<unknown>();
    for (let i = 2; i <= ws.rowCount; i++) clientsColumn.add(ws.getRow(i).getCell(4).value);
    expect([...clientsColumn]).toEqual(['Pohjola Rakennus Oy']);
    const after = JSON.parse(String(ws.getRow(2).getCell(10).value));
    expect(after).toEqual(list.items[0].after);
  });

  it("exports the time as the page shows it and the area and action in words, in the caller's language (no ISO time, no codes)", async () => {
    const list = (
      await t.inject({ method: 'GET', url: `${url}?clientId=${saimaa}&pageSize=1`, token: admin })
    ).json();
    const first = list.items[0];
    expect(first).toMatchObject({ area: 'clients', action: 'create' });
    const at = new Date(first.at);
    for (const [lang, area, action, kind, time] of [
      ['en', 'Clients', 'Created', 'Sub-company', /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/],
      ['fi', 'Asiakkaat', 'Lisätty', 'Tytäryhtiö', /^\d{1,2}\.\d{1,2}\.\d{4} klo \d{2}\.\d{2}$/],
    ] as const) {
      await t.deps.database.db
        .update(users)
        .set({ languageId: lang === 'fi' ? 2 : 1 })
        .where(eq(users.email, DEMO.admin));
      const { wb } = await getWorkbook(t, `${url}/export?clientId=${saimaa}`, admin);
      const row = wb.worksheets[0]!.getRow(2);
      expect(row.getCell(1).value).toMatch(time);
      expect(row.getCell(1).value).toBe(businessDateTime(at, lang));
      expect([row.getCell(5).value, row.getCell(6).value, row.getCell(7).value]).toEqual([
        area,
        action,
        kind,
      ]);
    }
    await t.deps.database.db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.admin));
  });
});
