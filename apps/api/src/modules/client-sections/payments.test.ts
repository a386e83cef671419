import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, helsinkiDay, helsinkiDayStart, message } from '@kulu/shared';
import { clientPayments } from '../../db/schema/index.js';
import { clientWing, expectEachStatus, expectSameBadBody, loggedFor } from '../../test/client-wing.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';

let t: TestApp;
let admin: string, consultant: string, companyAdmin: string, clientUser: string;
let clientId: number, otherClientId: number;
let otherPaymentId: number;

const DAY = 86_400_000;
const today = () => helsinkiDay(t.deps.now());
const dayFrom = (days: number) => helsinkiDay(new Date(t.deps.now().getTime() + days * DAY));

const base = (id = clientId) => `/api/clients/${id}/payments`;
const rowsOf = (id: number) =>
  t.deps.database.db.select().from(clientPayments).where(eq(clientPayments.clientId, id));
const logOf = (id: number) => loggedFor(t, 'payment', id);
const add = (payload: object, token = admin) => t.inject({ method: 'POST', url: base(), token, payload });

beforeAll(async () => {
  t = await createTestApp();
  // The demo consultant keeps only the first company: the other is "another client" to them.
  ({ admin, consultant, companyAdmin, clientUser, clientId, otherClientId } = await clientWing(t, {
    consultantKeepsOne: true,
  }));
  const [other] = await t.deps.database.db
    .insert(clientPayments)
    .values({ clientId: otherClientId, paymentDate: '2025-01-15', amount: '99.00', description: 'Other' })
    .returning();
  otherPaymentId = other.id;
});
afterAll(async () => {
  await t?.close();
});

describe('client payments', () => {
  it('adds a payment dated today with the message, logged', async () => {
    const res = await add({ paymentDate: today(), amount: '1250,50', description: 'Invoice 2025-11' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      code: 'paymentAdded',
      message: message('paymentAdded', 'en'),
      payment: { clientId, paymentDate: today(), amount: '1250.50', description: 'Invoice 2025-11' },
    });
    const id = res.json().payment.id as number;
    expect(await logOf(id)).toMatchObject([
      { area: 'payments', action: 'create', clientId, after: { amount: '1250.50' } },
    ]);
  });

  it('refuses an amount of 0 or less with the spec message, and leaves the table as it was', async () => {
    const before = await rowsOf(clientId);
    for (const amount of ['0', '0.00', '-5', -1]) {
      const res = await add({ paymentDate: today(), amount });
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json(), String(amount)).toMatchObject({
        code: 'paymentAmountPositive',
        message: message('paymentAmountPositive', 'en'),
        fields: { amount: 'invalid' },
      });
    }
    expect(await rowsOf(clientId)).toEqual(before);
  });

  it('refuses a date in the future (tomorrow, next month) with the spec message, table unchanged', async () => {
    const before = await rowsOf(clientId);
    const res = await add({ paymentDate: dayFrom(1), amount: '10' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'paymentDateInFuture',
      message: message('paymentDateInFuture', 'en'),
      fields: { paymentDate: 'invalid' },
    });
    const later = await add({ paymentDate: dayFrom(40), amount: '10' });
    expect(later.statusCode).toBe(400);
    expect(later.json().code).toBe('paymentDateInFuture');
    expect(await rowsOf(clientId)).toEqual(before);
  });

  it('answers required / invalid fields, never a 5xx, on bad input', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [{}, { paymentDate: 'required', amount: 'required' }],
      [{ paymentDate: '2025-02-30', amount: '10' }, { paymentDate: 'invalid' }],
      [{ paymentDate: today(), amount: 'ten' }, { amount: 'invalid' }],
      [{ paymentDate: today(), amount: '10.123' }, { amount: 'invalid' }],
      [{ paymentDate: today(), amount: '1234567890123' }, { amount: 'invalid' }],
      [{ paymentDate: today(), amount: '10', description: 'a\u0000b' }, { description: 'invalid' }],
    ];
    for (const [payload, fields] of cases) {
      const res = await add(payload as object);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().fields, JSON.stringify(payload)).toMatchObject(fields);
    }
    const list = await t.inject({ method: 'GET', url: `${base()}?sort=nope`, token: admin });
    expect(list.statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: `${base()}/abc`, token: admin })).statusCode).toBe(400);
  });

  it('lists with paging, sort and the total amount of every payment', async () => {
    for (const [paymentDate, amount] of [
      ['2024-03-01', '100.00'],
      ['2024-01-01', '200.00'],
      ['2024-02-01', '300.00'],
    ]) {
      const res = await add({ paymentDate, amount });
      expect(res.statusCode).toBe(201);
    }
    const rows = await rowsOf(clientId);
    const sum = rows.reduce((s, r) => s + Number(r.amount), 0).toFixed(2);
    const page = await t.inject({ method: 'GET', url: `${base()}?page=1&pageSize=2`, token: admin });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: rows.length, page: 1, pageSize: 2, totalAmount: sum });
    expect(page.json().items).toHaveLength(2);
    // Newest first by default.
    expect(page.json().items[0].paymentDate).toBe(today());
    const byAmount = await t.inject({
      method: 'GET',
      url: `${base()}?sort=amount&order=asc&pageSize=50`,
      token: admin,
    });
    const amounts = byAmount.json().items.map((p: { amount: string }) => Number(p.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const oldest = await t.inject({
      method: 'GET',
      url: `${base()}?sort=paymentDate&order=asc`,
      token: admin,
    });
    expect(oldest.json().items[0].paymentDate).toBe('2024-01-01');
  });

  it('updates a payment with the message and before/after in the log, by the same rules', async () => {
    const created = await add({ paymentDate: '2024-05-05', amount: '50' });
    const id = created.json().payment.id as number;
    const res = await t.inject({
      method: 'PUT',
      url: `${base()}/${id}`,
      token: admin,
      payload: { paymentDate: '2024-05-06', amount: '75.25', description: 'Corrected' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 'paymentUpdated',
      message: message('paymentUpdated', 'en'),
      payment: { id, paymentDate: '2024-05-06', amount: '75.25', description: 'Corrected' },
    });
    const log = await logOf(id);
    expect(log.map((l) => l.action)).toEqual(['create', 'update']);
    expect(log[1].before).toMatchObject({ amount: '50.00' });
    expect(log[1].after).toMatchObject({ amount: '75.25' });

    const before = await rowsOf(clientId);
    for (const payload of [
      { paymentDate: dayFrom(2), amount: '10' },
      { paymentDate: '2024-05-06', amount: '0' },
    ]) {
      const bad = await t.inject({ method: 'PUT', url: `${base()}/${id}`, token: admin, payload });
      expect(bad.statusCode).toBe(400);
    }
    expect(await rowsOf(clientId)).toEqual(before);
    expect(await logOf(id)).toHaveLength(2);
  });

  it('deletes a payment with the message, logged; a second delete is 404', async () => {
    const created = await add({ paymentDate: '2024-06-01', amount: '5' });
    const id = created.json().payment.id as number;
    const res = await t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'paymentDeleted', message: message('paymentDeleted', 'en') });
    expect((await rowsOf(clientId)).some((r) => r.id === id)).toBe(false);
    const log = await logOf(id);
    expect(log.map((l) => l.action)).toEqual(['create', 'delete']);
    expect(log[1].before).toMatchObject({ amount: '5.00' });
    expect((await t.inject({ method: 'DELETE', url: `${base()}/${id}`, token: admin })).statusCode).toBe(404);
  });
});

describe('client payments: permission and tenancy', () => {
  it('is closed to company users (403)', async () => {
    await expectEachStatus(t, [companyAdmin, clientUser], 403, [
      ['GET', base()],
      ['POST', base(), { paymentDate: today(), amount: '1' }],
    ]);
  });

  it("answers 404 for another client's payment under this client; a bad body is the same 400 for any id", async () => {
    const url = `${base()}/${otherPaymentId}`;
    expect((await t.inject({ method: 'GET', url, token: admin })).statusCode).toBe(404);
    // A future date too: the row is looked up first.
    for (const paymentDate of [today(), dayFrom(3)]) {
      const put = await t.inject({ method: 'PUT', url, token: admin, payload: { paymentDate, amount: '1' } });
      expect(put.statusCode).toBe(404);
    }
    await expectSameBadBody(t, admin, { foreign: url, unknown: `${base()}/999999` }, { amount: 0 });
    expect((await t.inject({ method: 'DELETE', url, token: admin })).statusCode).toBe(404);
    expect(await rowsOf(otherClientId)).toMatchObject([{ id: otherPaymentId, amount: '99.00' }]);
    expect((await t.inject({ method: 'GET', url: base(999999), token: admin })).statusCode).toBe(404);
  });

  it('limits a consultant to the assigned companies (another company: 404, body or not)', async () => {
    expect((await t.inject({ method: 'GET', url: base(), token: consultant })).statusCode).toBe(200);
    const created = await add({ paymentDate: today(), amount: '3' }, consultant);
    expect(created.statusCode).toBe(201);
    await expectEachStatus(t, consultant, 404, [
      ['GET', base(otherClientId)],
      ['POST', base(otherClientId), { amount: 'x' }],
      ['GET', `${base(otherClientId)}/${otherPaymentId}`],
      ['PUT', `${base(otherClientId)}/${otherPaymentId}`, { paymentDate: today(), amount: '1' }],
      ['DELETE', `${base(otherClientId)}/${otherPaymentId}`],
    ]);
    expect(await rowsOf(otherClientId)).toHaveLength(1);
  });
});

describe('client payments: today is the day in Europe/Helsinki', () => {
  it('accepts a payment dated today at 00:30 Helsinki time, while the UTC day is still yesterday', async () => {
    // The clock at 00:30 on the day after tomorrow in Helsinki: 22:30 or 21:30 UTC the day before.
    const day = addDays(today(), 2);
    const at = helsinkiDayStart(day).getTime() + 30 * 60_000;
    t.advanceClock(at - t.deps.now().getTime());
    expect(today()).toBe(day);
    expect(t.deps.now().toISOString().slice(0, 10)).toBe(addDays(day, -1));
    const token = await t.login(DEMO.admin);
    const before = await rowsOf(clientId);

    const ok = await add({ paymentDate: day, amount: '5' }, token);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().payment).toMatchObject({ paymentDate: day });
    // The next Helsinki day is still in the future.
    const later = await add({ paymentDate: addDays(day, 1), amount: '5' }, token);
    expect(later.statusCode).toBe(400);
    expect(later.json().code).toBe('paymentDateInFuture');
    expect(await rowsOf(clientId)).toHaveLength(before.length + 1);
  });
});
