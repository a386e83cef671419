import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { addDays, firstOfMonth, helsinkiDayStart } from '@kulu/shared';
import { clients, onDemandSupport } from '../../db/schema/index.js';
import { insertBillingPlan } from '../../test/client-wing.js';
import { useDatedEntries } from '../../test/dated-entries.js';
import { DEMO } from '../../test/helpers.js';

const support = useDatedEntries('supportHours', (today) => ({
  supportDate: today,
  hours: '2.00',
  description: 'Other',
}));
const { base, add, today, dayFrom } = support;
const rowsOf = support.rows;
/** The last day of the previous month. */
const lastMonth = () => addDays(firstOfMonth(today()), -1);

beforeAll(async () => {
  const { db } = support.t.deps.database;
  // The client is billed by a plan with an on-demand support fee of 90.00 an hour.
  const planId = await insertBillingPlan(support.t, {
    name: 'Support test plan',
    costPerPlan: '3.00',
    onDemandSupportFee: '90.00',
  });
  await db.update(clients).set({ billingPlanId: planId }).where(eq(clients.id, support.clientId));
  // An entry of last month (written directly): not in this month's total.
  await db.insert(onDemandSupport).values({
    clientId: support.clientId,
    supportDate: lastMonth(),
    hours: '7.00',
    description: 'Last month',
  });
});

describe('on-demand support hours', () => {
  it('adds hours dated today and on the first of the month, with the message, logged', async () => {
    const payload = { supportDate: today(), hours: '1,5', description: 'Phone support' };
    // Saved with the decimal comma read as a point.
    const saved = { ...payload, hours: '1.50' };
    await support.expectAddedLogged('supportHoursAdded', payload, saved);

    const first = await add({ supportDate: firstOfMonth(today()), hours: 2 });
    expect(first.statusCode).toBe(201);
    expect(first.json().support.hours).toBe('2.00');
  });

  it('refuses a day after today or before this month with the spec message, table unchanged', async () => {
    const days = [dayFrom(1), dayFrom(40), lastMonth(), '2020-01-01'];
    await support.expectEachRefused(
      'supportDateNotInMonth',
      'supportDate',
      days.map((supportDate) => ({ supportDate, hours: '1' })),
    );
  });

  it('refuses hours of 0 or less with the spec message, table unchanged', async () => {
    const hours = ['0', '0.00', '-1', -0.5];
    await support.expectEachRefused(
      'supportHoursPositive',
      'hours',
      hours.map((h) => ({ supportDate: today(), hours: h })),
    );
  });

  it('answers required / invalid fields, never a 5xx, on bad input', async () => {
    await support.expectFieldIssues(
      { supportDate: today(), hours: '1' },
      { supportDate: ['yesterday'], hours: ['many', '10000', '1.255'], description: ['x'.repeat(501)] },
    );
    const q = await support.t.inject({
      method: 'GET',
      url: `${base()}?pageSize=100000`,
      token: support.admin,
    });
    expect(q.statusCode).toBe(400);
  });

  it("lists with paging and this month's total hours and cost at the plan's support fee", async () => {
    const res = await support.t.inject({ method: 'GET', url: `${base()}?pageSize=1`, token: support.admin });
    expect(res.statusCode).toBe(200);
    const rows = await rowsOf(support.clientId);
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
    const asc = await support.t.inject({
      method: 'GET',
      url: `${base()}?sort=supportDate&order=asc`,
      token: support.admin,
    });
    expect(asc.json().items[0].supportDate).toBe(lastMonth());

    // Without a billing plan there is no cost.
    await support.t.deps.database.db
      .update(clients)
      .set({ billingPlanId: null })
      .where(eq(clients.id, support.otherClientId));
    const other = await support.t.inject({
      method: 'GET',
      url: base(support.otherClientId),
      token: support.admin,
    });
    expect(other.json()).toMatchObject({ monthHours: '2.00', hourlyFee: null, monthCost: null });
  });

  it('updates hours with the message and before/after in the log, by the same rules', async () => {
    const log = await support.expectUpdatedLogged('supportHoursUpdated', {
      created: { supportDate: today(), hours: '1' },
      payload: { supportDate: firstOfMonth(today()), hours: '2.25', description: 'Training' },
      bad: [
        { supportDate: dayFrom(1), hours: '1' },
        { supportDate: lastMonth(), hours: '1' },
        { supportDate: today(), hours: '0' },
      ],
    });
    expect(log[1].before).toMatchObject({ hours: '1.00' });
  });

  it('deletes hours with the message, logged; a second delete is 404', async () => {
    await support.expectDeletedLogged('supportHoursDeleted', { supportDate: today(), hours: '0.25' });
  });
});

describe('on-demand support: permission and tenancy', () => {
  it('is closed to company users (403)', async () => {
    await support.expectClosedToCompanyUsers({ supportDate: today(), hours: '1' });
  });

  it("answers 404 for another client's entry, also to a consultant without that company", async () => {
    const valid = { supportDate: today(), hours: '1' };
    await support.expectOtherClientsEntryHidden(valid, { hours: 0 });
    await support.expectConsultantLimited(valid, { hours: 'x' });
    expect(await rowsOf(support.otherClientId)).toMatchObject([{ hours: '2.00' }]);
  });
});

describe('on-demand support: the month moves with the clock', () => {
  it("refuses last month's days from midnight on the 1st in Helsinki, and counts only the new month", async () => {
    const oldToday = today();
    const before = await rowsOf(support.clientId);
    // Move the clock to 00:30 on the 1st of next month in Helsinki, when the UTC day is still the
    // last of this month (tokens expire on the way: sign in again).
    const first = addDays(`${oldToday.slice(0, 7)}-28`, 4).slice(0, 8) + '01';
    const target = helsinkiDayStart(first).getTime() + 30 * 60_000;
    support.t.advanceClock(target - support.t.deps.now().getTime());
    expect(today()).toBe(first);
    expect(support.t.deps.now().toISOString().slice(0, 7)).toBe(oldToday.slice(0, 7));
    const token = await support.t.login(DEMO.admin);

    const res = await add({ supportDate: oldToday, hours: '1' }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('supportDateNotInMonth');
    expect(await rowsOf(support.clientId)).toEqual(before);

    const list = await support.t.inject({ method: 'GET', url: base(), token });
    expect(list.json()).toMatchObject({ month: today().slice(0, 7), monthHours: '0.00', monthCost: '0.00' });
    const ok = await add({ supportDate: firstOfMonth(today()), hours: '1' }, token);
    expect(ok.statusCode).toBe(201);
  });
});
