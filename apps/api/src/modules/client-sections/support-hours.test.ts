import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, firstOfMonth, helsinkiDay, helsinkiDayStart, message } from '@kulu/shared';
import { clients, onDemandSupport } from '../../db/schema/index.js';
import {
  clientWing,
  expectEachStatus,
  expectSameBadBody,
  insertBillingPlan,
  loggedFor,
} from '../../test/client-wing.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let admin: string, consultant: string, companyAdmin: string, clientUser: string;
let clientId: number, otherClientId: number;
let otherEntryId: number;

const DAY = 86_400_000;
const today = () => helsinkiDay(t.deps.now());
const dayFrom = (days: number) => helsinkiDay(new Date(t.deps.now().getTime() + days * DAY));
/** The last day of the previous month. */
const lastMonth = () => addDays(firstOfMonth(today()), -1);

const base = (id = clientId) => `/api/clients/${id}/support-hours`;
const rowsOf = (id: number) =>
  t.deps.database.db.select().from(onDemandSupport).where(eq(onDemandSupport.clientId, id));
const logOf = (id: number) => loggedFor(t, 'supportHours', id);
const add = (payload: object, token = admin, id = clientId) =>
  t.inject({ method: 'POST', url: base(id), token, payload });

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, consultant, companyAdmin, clientUser, clientId, otherClientId } = await clientWing(t, {
    consultantKeepsOne: true,
  }));
  const [other] = await t.deps.database.db
    .insert(onDemandSupport)
    .values({ clientId: otherClientId, supportDate: today(), hours: '2.00', description: 'Other' })
    .returning();
  otherEntryId = other.id;
  // The client is billed by a plan with an on-demand support fee of 90.00 an hour.
  const planId = await insertBillingPlan(t, {
    name: 'Support test plan',
    costPerPlan: '3.00',
    onDemandSupportFee: '90.00',
  });
  await t.deps.database.db.update(clients).set({ billingPlanId: planId }).where(eq(clients.id, clientId));
  // An entry of last month (written directly): not in this month's total.
  await t.deps.database.db
    .insert(onDemandSupport)
    .values({ clientId, supportDate: lastMonth(), hours: '7.00', description: 'Last month' });
});
afterAll(async () => {
  await t?.close();
});

describe('on-demand support hours', () => {
  it('adds hours dated today and on the first of the month, with the message, logged', async () => {
    const res = await add({ supportDate: today(), hours: '1,5', description: 'Phone support' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'supportHoursAdded',
      message: message('supportHoursAdded', 'en'),
      support: { clientId, supportDate: today(), hours: '1.50', description: 'Phone support' },
    });
    const id = res.json().support.id as number;
    expect(await logOf(id)).toMatchObject([
      { area: 'support', action: 'create', clientId, after: { hours: '1.50' } },
    ]);

    const first = await add({ supportDate: firstOfMonth(today()), hours: 2 });
    expect(first.statusCode).toBe(201);
    expect(first.json().support.hours).toBe('2.00');
  });

  it('refuses a day after today or before this month with the spec message, table unchanged', async () => {
    const before = await rowsOf(clientId);
    for (const supportDate of [dayFrom(1), dayFrom(40), lastMonth(), '2020-01-01']) {
      const res = await add({ supportDate, hours: '1' });
      expect(res.statusCode, supportDate).toBe(400);
      expect(res.json(), supportDate).toMatchObject({
        code: 'supportDateNotInMonth',
        message: message('supportDateNotInMonth', 'en'),
        fields: { supportDate: 'invalid' },
      });
    }
    expect(await rowsOf(clientId)).toEqual(before);
  });

  it('refuses hours of 0 or less with the spec message, table unchanged', async () => {
    const before = await rowsOf(clientId);
    for (const hours of ['0', '0.00', '-1', -0.5]) {
      const res = await add({ supportDate: today(), hours });
      expect(res.statusCode, String(hours)).toBe(400);
      expect(res.json(), String(hours)).toMatchObject({
        code: 'supportHoursPositive',
        message: message('supportHoursPositive', 'en'),
        fields: { hours: 'invalid' },
      });
    }
    expect(await rowsOf(clientId)).toEqual(before);
  });

  it('answers required / invalid fields, never a 5xx, on bad input', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{}, { supportDate: 'required', hours: 'required' }],
      [{ supportDate: 'yesterday', hours: '1' }, { supportDate: 'invalid' }],
      [{ supportDate: today(), hours: 'many' }, { hours: 'invalid' }],
      [{ supportDate: today(), hours: '10000' }, { hours: 'invalid' }],
      [{ supportDate: today(), hours: '1.255' }, { hours: 'invalid' }],
      [{ supportDate: today(), hours: '1', description: 'x'.repeat(501) }, { description: 'invalid' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await add(payload as object);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields, JSON.stringify(payload)).toMatchObject(fields);
    }
    const q = await t.inject({ method: 'GET', url: `${base()}?pageSize=100000`, token: admin });
    expect(q.statusCode).toBe(400);
  });

  it("lists with paging and this month's total hours and cost at the plan's support fee", async () => {
    const res = await t.inject({ method: 'GET', url: `${base()}?pageSize=1`, token: admin });
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf(clientId);
    const monthHours = rows
      .filter((r) => r.supportDate >= firstOfMonth(today()) && r.supportDate <= today())
      .reduce((s, r) => s + Number(r.hours), 0);
    expect(monthHours).toBe(3.5);
    expect(res.json()).toMatchObject({
      total: rows.length,
      page: 1,
      pageSize: 1,
      month: today().slice(0, 7),
      monthHours: '3.50',
      hourlyFee: '90.00',
      monthCost: '315.00',
    });
    expect(res.json().items).toHaveLength(1);
    const asc = await t.inject({ method: 'GET', url: `${base()}?sort=supportDate&order=asc`, token: admin });
    expect(asc.json().items[0].supportDate).toBe(lastMonth());

    // Without a billing plan there is no cost.
    await t.deps.database.db
      .update(clients)
      .set({ billingPlanId: null })
      .where(eq(clients.id, otherClientId));
    const other = await t.inject({ method: 'GET', url: base(otherClientId), token: admin });
    expect(other.json()).toMatchObject({ monthHours: '2.00', hourlyFee: null, monthCost: null });
  });

  it('updates hours with the message and before/after in the log, by the same rules', async () => {
    const created = await add({ supportDate: today(), hours: '1' });
    const id = created.json().support.id as number;
    const res = await t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: admin,
      payload: { supportDate: firstOfMonth(today()), hours: '2.25', description: 'Training' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'supportHoursUpdated',
      message: message('supportHoursUpdated', 'en'),
      support: { id, supportDate: firstOfMonth(today()), hours: '2.25', description: 'Training' },
    });
    const log = await logOf(id);
    expect(log.map((l) => l.action)).toEqual(['create', 'update']);
    expect(log[1].before).toMatchObject({ hours: '1.00' });

    const before = await rowsOf(clientId);
    for (const payload of [
      { supportDate: dayFrom(1), hours: '1' },
      { supportDate: lastMonth(), hours: '1' },
      { supportDate: today(), hours: '0' },
    ]) {
      const bad = await t.inject({ method: 'PUT', url: `${base()}/${id}`, token: admin, payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await rowsOf(clientId)).toEqual(before);
    expect(await logOf(id)).toHaveLength(2);
  });

  it('deletes hours with the message, logged; a second delete is 404', async () => {
    const created = await add({ supportDate: today(), hours: '0.25' });
    const id = created.json().support.id as number;
    const res = await t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 'supportHoursDeleted',
      message: message('supportHoursDeleted', 'en'),
    });
    expect((await rowsOf(clientId)).some((r) => r.id === id)).toBe(false);
    expect((await logOf(id)).map((l) => l.action)).toEqual(['create', 'delete']);
    expect((await t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: admin })).statusCode).toBe(404);
  });
});

describe('on-demand support: permission and tenancy', () => {
  it('is closed to company users (403)', async () => {
    await expectEachStatus(t, [companyAdmin, clientUser], 403, [
      ['GET', base()],
      ['POST', base(), { supportDate: today(), hours: '1' }],
    ]);
  });

  it("answers 404 for another client's entry, also to a consultant without that company", async () => {
    const url = `${base()}/${otherEntryId}`;
    expect((await t.inject({ method: 'GET', url, token: admin })).statusCode).toBe(404);
    const valid = { supportDate: today(), hours: '1' };
    expect((await t.inject({ method: 'PUT', url, token: admin, payload: valid })).statusCode).toBe(404);
    await expectSameBadBody(t, admin, { foreign: url, unknown: `${base()}/999999` }, { hours: 0 });

    expect((await t.inject({ method: 'GET', url: base(), token: consultant })).statusCode).toBe(200);
    await expectEachStatus(t, consultant, 404, [
      ['GET', base(otherClientId)],
      ['POST', base(otherClientId), { hours: 'x' }],
      ['PUT', `${base(otherClientId)}/${otherEntryId}`, { supportDate: today(), hours: '1' }],
      ['DELETE', `${base(otherClientId)}/${otherEntryId}`],
    ]);
    expect(await rowsOf(otherClientId)).toMatchObject([{ id: otherEntryId, hours: '2.00' }]);
  });
});

describe('on-demand support: the month moves with the clock', () => {
  it("refuses last month's days from midnight on the 1st in Helsinki, and counts only the new month", async () => {
    const oldToday = today();
    const before = await rowsOf(clientId);
    // Move the clock to 00:30 on the 1st of next month in Helsinki, when the UTC day is still the
    // last of this month (tokens expire on the way: sign in again).
    const first = addDays(`${oldToday.slice(0, 7)}-28`, 4).slice(0, 8) + '01';
    const target = helsinkiDayStart(first).getTime() + 30 * 60_000;
    t.advanceClock(target - t.deps.now().getTime());
    expect(today()).toBe(first);
    expect(t.deps.now().toISOString().slice(0, 7)).toBe(oldToday.slice(0, 7));
    const token = await t.login(DEMO.admin);

    const res = await add({ supportDate: oldToday, hours: '1' }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('supportDateNotInMonth');
    expect(await rowsOf(clientId)).toEqual(before);

    const list = await t.inject({ method: 'GET', url: base(), token });
    expect(list.json()).toMatchObject({ month: today().slice(0, 7), monthHours: '0.00', monthCost: '0.00' });
    const ok = await add({ supportDate: firstOfMonth(today()), hours: '1' }, token);
    expect(ok.statusCode).toBe(201);
  });
});
