import { describe, expect, it } from 'vitest';
import { addDays, helsinkiDayStart } from '@kulu/shared';
import { useDatedEntries } from '../../test/dated-entries.js';
import { DEMO } from '../../test/helpers.js';

const payments = useDatedEntries('payments', () => ({
  paymentDate: '2025-01-15',
  amount: '99.00',
  description: 'Other',
}));
const { base, add, today, dayFrom } = payments;
const rowsOf = payments.rows;

describe('client payments', () => {
  it('adds a payment dated today with the message, logged', async () => {
    const payload = { paymentDate: today(), amount: '1250,50', description: 'Invoice 2025-11' };
    // Saved with the decimal comma read as a point.
    const saved = { ...payload, amount: '1250.50' };
    await payments.expectAddedLogged('paymentAdded', payload, saved);
  });

  it('refuses an amount of 0 or less with the spec message, and leaves the table as it was', async () => {
    const amounts = ['0', '0.00', '-5', -1];
    await payments.expectEachRefused(
      'paymentAmountPositive',
      'amount',
      amounts.map((amount) => ({ paymentDate: today(), amount })),
    );
  });

  it('refuses a date in the future (tomorrow, next month) with the spec message, table unchanged', async () => {
    await payments.expectEachRefused('paymentDateInFuture', 'paymentDate', [
      { paymentDate: dayFrom(1), amount: '10' },
      { paymentDate: dayFrom(40), amount: '10' },
    ]);
  });

  it('answers required / invalid fields, never a 5xx, on bad input', async () => {
    const amounts = ['ten', '10.123', '1234567890123'];
    const invalid = { paymentDate: ['2025-02-30'], amount: amounts, description: ['a\u0000b'] };
    await payments.expectFieldIssues({ paymentDate: today(), amount: '10' }, invalid);
    const list = await payments.t.inject({
      method: 'GET',
      url: `${base()}?sort=nope`,
      token: payments.admin,
    });
    expect(list.statusCode).toBe(400);
    expect(
      (await payments.t.inject({ method: 'GET', url: `${base()}/abc`, token: payments.admin })).statusCode,
    ).toBe(400);
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
    const rows = await rowsOf(payments.clientId);
    const sum = rows.reduce((s, r) => s + Number(r.amount), 0).toFixed(2);
    const page = await payments.t.inject({
      method: 'GET',
      url: `${base()}?page=1&pageSize=2`,
      token: payments.admin,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: rows.length, page: 1, pageSize: 2, totalAmount: sum });
    expect(page.json().items).toHaveLength(2);
    // Newest first by default.
    expect(page.json().items[0].paymentDate).toBe(today());
    const byAmount = await payments.t.inject({
      method: 'GET',
      url: `${base()}?sort=amount&order=asc&pageSize=50`,
      token: payments.admin,
    });
    const amounts = byAmount.json().items.map((p: { amount: string }) => Number(p.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const oldest = await payments.t.inject({
      method: 'GET',
      url: `${base()}?sort=paymentDate&order=asc`,
      token: payments.admin,
    });
    expect(oldest.json().items[0].paymentDate).toBe('2024-01-01');
  });

  it('updates a payment with the message and before/after in the log, by the same rules', async () => {
    const log = await payments.expectUpdatedLogged('paymentUpdated', {
      created: { paymentDate: '2024-05-05', amount: '50' },
      payload: { paymentDate: '2024-05-06', amount: '75.25', description: 'Corrected' },
      bad: [
        { paymentDate: dayFrom(2), amount: '10' },
        { paymentDate: '2024-05-06', amount: '0' },
      ],
    });
    expect(log[1].before).toMatchObject({ amount: '50.00' });
    expect(log[1].after).toMatchObject({ amount: '75.25' });
  });

  it('deletes a payment with the message, logged; a second delete is 404', async () => {
    const log = await payments.expectDeletedLogged('paymentDeleted', {
      paymentDate: '2024-06-01',
      amount: '5',
    });
    expect(log[1].before).toMatchObject({ amount: '5.00' });
  });
});

describe('client payments: permission and tenancy', () => {
  it('is closed to company users (403)', async () => {
    await payments.expectClosedToCompanyUsers({ paymentDate: today(), amount: '1' });
  });

  it("answers 404 for another client's payment under this client; a bad body is the same 400 for any id", async () => {
    await payments.expectOtherClientsEntryHidden({ paymentDate: today(), amount: '1' }, { amount: 0 });
    // A future date too: the row is looked up first.
    const url = `${base()}/${payments.otherEntryId}`;
    const payload = { paymentDate: dayFrom(3), amount: '1' };
    expect((await payments.t.inject({ method: 'PUT', url, token: payments.admin, payload })).statusCode).toBe(
      404,
    );
    expect(await rowsOf(payments.otherClientId)).toMatchObject([{ amount: '99.00' }]);
    expect(
      (await payments.t.inject({ method: 'GET', url: base(999999), token: payments.admin })).statusCode,
    ).toBe(404);
  });

  it('limits a consultant to the assigned companies (another company: 404, body or not)', async () => {
    const created = await add({ paymentDate: today(), amount: '3' }, payments.consultant);
    expect(created.statusCode).toBe(201);
    await payments.expectConsultantLimited({ paymentDate: today(), amount: '1' }, { amount: 'x' });
  });
});

describe('client payments: today is the day in Europe/Helsinki', () => {
  it('accepts a payment dated today at 00:30 Helsinki time, while the UTC day is still yesterday', async () => {
    // The clock at 00:30 on the day after tomorrow in Helsinki: 22:30 or 21:30 UTC the day before.
    const day = addDays(today(), 2);
    const at = helsinkiDayStart(day).getTime() + 30 * 60_000;
    payments.t.advanceClock(at - payments.t.deps.now().getTime());
    expect(today()).toBe(day);
    expect(payments.t.deps.now().toISOString().slice(0, 10)).toBe(addDays(day, -1));
    const token = await payments.t.login(DEMO.admin);
    const before = await rowsOf(payments.clientId);

    const ok = await add({ paymentDate: day, amount: '5' }, token);
    expect(ok.statusCode).toBe(201);
    expect(ok.json().payment).toMatchObject({ paymentDate: day });
    // The next Helsinki day is still in the future.
    const later = await add({ paymentDate: addDays(day, 1), amount: '5' }, token);
    expect(later.statusCode).toBe(400);
    expect(later.json().code).toBe('paymentDateInFuture');
    expect(await rowsOf(payments.clientId)).toHaveLength(before.length + 1);
  });
});
