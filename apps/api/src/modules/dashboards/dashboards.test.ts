import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { OPTIMIZABLE_USAGE_TYPES } from '@kulu/shared';
import {
  costCategories,
  costCenters,
  invoices,
  monthlyCostSummary,
  monthlyFacts,
  plans,
  subCompanies,
  subscriptionCategoryMonthCost,
  subscriptionMonthCost,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import { useLimitedClientUser } from '../../test/fixtures.js';
import { DEMO } from '../../test/helpers.js';
import { dashboardCacheStats } from './dashboard-cache.js';
import { uploadMonths } from '../../test/uploads.js';
import { getWorkbook } from '../../test/workbook.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

// The client user: limited to one sub-company (A; B is another of the same client), no cost-center
// limit, may read dashboards.
const app = useLimitedClientUser(['general', 'dashboards'], { jobs: true });
let other: number;

const MONTHS = ['2021-01', '2021-02', '2021-03'];

beforeAll(async () => {
  const { db } = app.t.deps.database;
  [{ clientId: other }] = (await db
    .select({ clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.otherCompanyAdmin))) as [{ clientId: number }];
  // Three months of invoices for each sub-company (no cost centers printed, so every
  // subscription belongs to the sub-company it was uploaded for).
  for (const [sub, operator, seed] of [
    [app.subA, 'elisa', 700],
    [app.subB, 'elisa', 800],
  ] as const) {
    await uploadMonths(
      app.t,
      app.tok.companyAdmin,
      { operator, subscriptions: 4, seed, months: MONTHS },
      { subCompanyId: sub },
    );
  }
}, 180_000);

const get = (query: string, token = app.tok.companyAdmin) =>
  app.t.inject({ method: 'GET', url: `/api/dashboard/cost-usage?${query}`, token });

/**
 * A report's totals over MONTHS: every line's cost, and the invoice-level lines' (no
 * subscription's) apart. The subscriptions' lines, for the report's rows.
 */
async function expectReportTotals(totals: { cost: string; invoiceLevelCost: string }) {
  const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2], subscriptionsOnly: true });
  const all = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
  expect(cents(totals.cost)).toBe(all.total);
  expect(cents(totals.invoiceLevelCost)).toBe(all.total - lines.total);
  return lines;
}

/** Sums over the imported invoice lines themselves, for the same filters. */
async function fromLines(f: {
  from: string;
  to: string;
  subCompanyId?: number;
  costCategoryId?: number;
  usageType?: string;
  /** Only the lines of subscriptions (not invoice-level lines). */
  subscriptionsOnly?: boolean;
}) {
  const { rows } = (await app.t.deps.database.db.execute(sql`
    select to_char(i.period_start, 'YYYY-MM') as month,
           e.cost_category_id as "costCategoryId",
           sum(l.amount)::text as cost,
           coalesce(sum(l.quantity) filter (where l.unit = 'min'), 0)::text as voice,
           coalesce(sum(l.quantity) filter (where l.unit = 'mb'), 0)::text as data,
           coalesce(sum(l.quantity) filter (where l.unit = 'pcs' and c.usage_type = 'sms'), 0)::text as sms
    from invoice_lines l
    join invoices i on i.id = l.invoice_id
    join cost_elements e on e.id = l.cost_element_id
    left join cost_categories c on c.id = e.cost_category_id
    left join subscriptions s on s.id = l.subscription_id
    where i.client_id = ${app.clientId}
      and i.period_start between ${`${f.from}-01`}::date and ${`${f.to}-01`}::date
      and (${f.subCompanyId ?? null}::int is null or coalesce(s.sub_company_id, i.sub_company_id) = ${f.subCompanyId ?? null}::int)
      and (${f.costCategoryId ?? null}::int is null or e.cost_category_id = ${f.costCategoryId ?? null}::int)
      and (${f.usageType ?? null}::text is null or c.usage_type = ${f.usageType ?? null}::text)
      and (${f.subscriptionsOnly ?? false}::boolean = false or l.subscription_id is not null)
    group by 1, 2`)) as unknown as {
    rows: Array<{
      month: string;
      costCategoryId: number | null;
      cost: string;
      voice: string;
      data: string;
      sms: string;
    }>;
  };
  const cents = (s: string) => Math.round(Number(s) * 100);
  const total = rows.reduce((a, r) => a + cents(r.cost), 0);
  const byMonth = new Map<string, number>();
  const byCategory = new Map<number | null, number>();
  let voice = 0;
  let data = 0;
  let sms = 0;
  for (const r of rows) {
    byMonth.set(r.month, (byMonth.get(r.month) ?? 0) + cents(r.cost));
    byCategory.set(r.costCategoryId, (byCategory.get(r.costCategoryId) ?? 0) + cents(r.cost));
    voice += Number(r.voice);
    data += Number(r.data);
    sms += Number(r.sms);
  }
  return { total, byMonth, byCategory, voice, data, sms, rows: rows.length };
}

const cents = (s: string) => Math.round(Number(s) * 100);
const period = `from=${MONTHS[0]}&to=${MONTHS[2]}`;

describe('GET /api/dashboard/cost-usage', () => {
  it('totals, months and categories equal the imported invoice lines of the client', async () => {
    const res = await get(period);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    expect(lines.total).toBeGreaterThan(0);
    expect(cents(body.totalCost)).toBe(lines.total);
    expect(body.totalCost).toMatch(/^-?\d+\.\d{2}$/);
    expect(body.months.map((m: { month: string }) => m.month)).toEqual(MONTHS);
    for (const m of body.months) expect(cents(m.cost)).toBe(lines.byMonth.get(m.month) ?? 0);
    const cats = new Map(
      body.byCategory.map((c: { costCategoryId: number | null; cost: string }) => [
        c.costCategoryId,
        cents(c.cost),
      ]),
    );
    expect(cats).toEqual(lines.byCategory);
    expect(body.usage.voiceMinutes).toBeCloseTo(lines.voice, 2);
    expect(body.usage.dataMb).toBeCloseTo(lines.data, 2);
    expect(body.usage.sms).toBeCloseTo(lines.sms, 2);
    expect(lines.voice * lines.data * lines.sms).toBeGreaterThan(0);
    expect(
      body.byCategory.every(
        (c: { costCategoryId: number | null; name: string }) => c.costCategoryId === null || c.name,
      ),
    ).toBe(true);
    // Sub-companies split the whole; the previous period (2020-10…12) had no invoices.
    const subs = body.bySubCompany.reduce((a: number, s: { cost: string }) => a + cents(s.cost), 0);
    expect(subs).toBe(lines.total);
    expect(body).toMatchObject({ previousFrom: '2020-10', previousTo: '2020-12', previousTotalCost: '0.00' });
    // Top users: at most 10, largest first, and all subscriptions with cost are counted.
    expect(body.byUser.items.length).toBe(Math.min(10, body.byUser.total));
    expect(body.byUser.total).toBeGreaterThanOrEqual(8);
    const userCosts = body.byUser.items.map((u: { cost: string }) => cents(u.cost));
    expect(userCosts).toEqual([...userCosts].sort((a, b) => b - a));
  });

  it('filters by sub-company and cost category, and compares with the previous period', async () => {
    const a = await get(`${period}&subCompanyId=${app.subA}`);
    expect(a.statusCode).toBe(200);
    const linesA = await fromLines({ from: MONTHS[0], to: MONTHS[2], subCompanyId: app.subA });
    expect(cents(a.json().totalCost)).toBe(linesA.total);
    expect(a.json().bySubCompany.map((s: { subCompanyId: number }) => s.subCompanyId)).toEqual([app.subA]);

    const category = [...linesA.byCategory.keys()].find((k) => k != null)!;
    const c = await get(`${period}&subCompanyId=${app.subB}&costCategoryId=${category}`);
    const linesC = await fromLines({
      from: MONTHS[0],
      to: MONTHS[2],
      subCompanyId: app.subB,
      costCategoryId: category,
    });
    expect(cents(c.json().totalCost)).toBe(linesC.total);

    // March alone against February (same length, just before).
    const march = (await get(`from=2021-03&to=2021-03`)).json();
    const feb = await fromLines({ from: '2021-02', to: '2021-02' });
    expect(march).toMatchObject({ previousFrom: '2021-02', previousTo: '2021-02' });
    expect(cents(march.previousTotalCost)).toBe(feb.total);
    expect(cents(march.totalCost)).toBe((await fromLines({ from: '2021-03', to: '2021-03' })).total);
  });

  it('shows a client user only their sub-company', async () => {
    const mine = await get(period, app.tok.clientUser);
    expect(mine.statusCode).toBe(200);
    const linesA = await fromLines({ from: MONTHS[0], to: MONTHS[2], subCompanyId: app.subA });
    expect(cents(mine.json().totalCost)).toBe(linesA.total);
    expect(mine.json().bySubCompany.map((s: { subCompanyId: number }) => s.subCompanyId)).toEqual([app.subA]);
    // The other sub-company of their own client is out of their scope: 404.
    expect((await get(`${period}&subCompanyId=${app.subB}`, app.tok.clientUser)).statusCode).toBe(404);
  });

  it("answers 404 for another client's client, sub-company or cost center", async () => {
    const { db } = app.t.deps.database;
    const [otherSub] = await db.select().from(subCompanies).where(eq(subCompanies.clientId, other)).limit(1);
    const [otherCc] = await db.select().from(costCenters).where(eq(costCenters.clientId, other)).limit(1);
    expect((await get(`${period}&clientId=${other}`)).statusCode).toBe(404);
    expect((await get(`${period}&subCompanyId=${otherSub.id}`)).statusCode).toBe(404);
    if (otherCc) expect((await get(`${period}&costCenterId=${otherCc.id}`)).statusCode).toBe(404);
    expect((await get(`${period}&clientId=${app.clientId}`, app.tok.otherCompanyAdmin)).statusCode).toBe(404);
    // A provider user names a client, and a sub-company of another client than the one named is 404.
    expect(
      (await get(`${period}&clientId=${other}&subCompanyId=${app.subA}`, app.tok.admin)).statusCode,
    ).toBe(404);
    const admin = await get(`${period}&clientId=${app.clientId}`, app.tok.admin);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().totalCost).toBe((await get(period)).json().totalCost);
  });

  it('refuses bad months and periods with 400 and a clear message, and a provider user without a client', async () => {
    for (const q of ['from=2021-13&to=2021-14', 'from=2021-1&to=2021-02', 'from=x&to=2021-02']) {
      const res = await get(q);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'invalidMonth' });
    }
    for (const q of ['from=2021-03&to=2021-02', 'from=2018-01&to=2021-01']) {
      const res = await get(q);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalidPeriod',
        message: expect.stringMatching(/36 months/),
      });
    }
    expect((await get('from=2018-02&to=2021-01')).statusCode).toBe(200);
    const noClient = await get(period, app.tok.admin);
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json()).toMatchObject({ fields: { clientId: 'required' } });
  });

  it('without a period covers the 12 months up to the latest month with costs', async () => {
    const res = await get(`subCompanyId=${app.subB}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.months).toHaveLength(12);
    const linesB = await fromLines({ from: body.from, to: body.to, subCompanyId: app.subB });
    expect(cents(body.totalCost)).toBe(linesB.total);
    expect(cents(body.totalCost)).toBeGreaterThan(0);
  });

  it('filters by usage type: only the costs of categories of that type', async () => {
    for (const usageType of ['voice', 'data', 'monthly_fee']) {
      const res = await get(`${period}&usageType=${usageType}`);
      expect(res.statusCode).toBe(200);
      const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2], usageType });
      expect(cents(res.json().totalCost), usageType).toBe(lines.total);
      expect(
        res.json().byCategory.every((c: { usageType: string }) => c.usageType === usageType),
        usageType,
      ).toBe(true);
    }
    expect(cents((await get(`${period}&usageType=data`)).json().totalCost)).toBeGreaterThan(0);
    const bad = await get(`${period}&usageType=telex`);
    expect(bad.statusCode).toBe(400);
  });

  it('compares like with like: a change only when every month with costs has its previous-period partner', async () => {
    // March against February: both invoiced.
    const march = (await get('from=2021-03&to=2021-03')).json();
    const feb = await fromLines({ from: '2021-02', to: '2021-02' });
    expect(march.comparison).toMatchObject({ months: 1, cost: march.totalCost });
    expect(cents(march.comparison.previousCost)).toBe(feb.total);
    // February–March against December–January: December has no invoices, so nothing comparable
    // (the old rule compared two months with one and showed a huge change).
    const two = (await get('from=2021-02&to=2021-03')).json();
    expect(cents(two.previousTotalCost)).toBe((await fromLines({ from: '2021-01', to: '2021-01' })).total);
    expect(two.comparison).toBeNull();
    // March–April against January–February: April is not invoiced yet, so March is compared
    // with January alone (February, whose partner April has no costs, is left out).
    const open = (await get('from=2021-03&to=2021-04')).json();
    const jan = await fromLines({ from: '2021-01', to: '2021-01' });
    expect(open.comparison).toMatchObject({ months: 1, cost: open.totalCost });
    expect(cents(open.comparison.previousCost)).toBe(jan.total);
    expect(cents(open.previousTotalCost)).toBe(jan.total + feb.total);
    // A period without costs has nothing to compare.
    expect((await get('from=2020-01&to=2020-03')).json().comparison).toBeNull();
  });
});

const subscriptionsOf = (query: string, token = app.tok.companyAdmin) =>
  app.t.inject({ method: 'GET', url: `/api/dashboard/cost-usage/subscriptions?${query}`, token });
type Row = {
  subscriptionId: number;
  cost: string;
  userName: string | null;
  phoneNumber: string;
  subCompanyId: number;
};

describe('GET /api/dashboard/cost-usage/subscriptions', () => {
  it('lists every subscription with its cost: the sum equals the subscription lines, the top users come first', async () => {
    const res = await subscriptionsOf(`${period}&pageSize=200`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const dash = (await get(period)).json();
    expect(body.total).toBe(dash.byUser.total);
    expect(body.items).toHaveLength(body.total);
    const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2], subscriptionsOnly: true });
    expect(body.items.reduce((a: number, r: Row) => a + cents(r.cost), 0)).toBe(lines.total);
    expect(cents(body.totalCost)).toBe(lines.total);
    // The dashboard's top users are this list's first rows.
    expect(body.items.slice(0, 10).map((r: Row) => r.subscriptionId)).toEqual(
      dash.byUser.items.map((u: { subscriptionId: number }) => u.subscriptionId),
    );
    // Paging and sorting: page 2 of 3 continues page 1; by user name, in order.
    const p2 = (await subscriptionsOf(`${period}&page=2&pageSize=3`)).json();
    expect(p2.items.map((r: Row) => r.subscriptionId)).toEqual(
      body.items.slice(3, 6).map((r: Row) => r.subscriptionId),
    );
    const byName = (await subscriptionsOf(`${period}&sort=userName&order=asc&pageSize=200`)).json();
    const names = (list: { items: Row[] }) => list.items.map((r) => r.userName).filter(Boolean);
    const desc = (await subscriptionsOf(`${period}&sort=userName&order=desc&pageSize=200`)).json();
    expect(names(byName).length).toBeGreaterThan(1);
    expect(names(byName)).toEqual(names(desc).reverse());
    expect(names(byName)).not.toEqual(names(desc));
    expect(byName.total).toBe(body.total);
    // Past the last page: no rows, the same total.
    const past = (await subscriptionsOf(`${period}&page=99&pageSize=10`)).json();
    expect(past).toMatchObject({ items: [], total: body.total, totalCost: body.totalCost });
  });

  it('searches by phone number or user name', async () => {
    const all = (await subscriptionsOf(`${period}&pageSize=200`)).json();
    const one: Row = all.items[all.items.length - 1];
    const byPhone = (
      await subscriptionsOf(`${period}&q=${encodeURIComponent(one.phoneNumber.slice(-6))}`)
    ).json();
    expect(byPhone.items.map((r: Row) => r.subscriptionId)).toContain(one.subscriptionId);
    expect(byPhone.total).toBeLessThan(all.total);
    expect(cents(byPhone.totalCost)).toBe(byPhone.items.reduce((a: number, r: Row) => a + cents(r.cost), 0));
    const none = (await subscriptionsOf(`${period}&q=${encodeURIComponent('%_no such user')}`)).json();
    expect(none).toMatchObject({ items: [], total: 0, totalCost: '0.00' });
  });

  it('drills down to one month, category and sub-company: the sum equals those lines', async () => {
    const lines = await fromLines({
      from: '2021-02',
      to: '2021-02',
      subCompanyId: app.subB,
      subscriptionsOnly: true,
    });
    const category = [...lines.byCategory.keys()].find((k) => k != null)!;
    const month = (
      await subscriptionsOf(`from=2021-02&to=2021-02&subCompanyId=${app.subB}&pageSize=200`)
    ).json();
    expect(cents(month.totalCost)).toBe(lines.total);
    expect(month.items.every((r: Row) => r.subCompanyId === app.subB)).toBe(true);
    const slice = (
      await subscriptionsOf(
        `from=2021-02&to=2021-02&subCompanyId=${app.subB}&costCategoryId=${category}&pageSize=200`,
      )
    ).json();
    expect(cents(slice.totalCost)).toBe(lines.byCategory.get(category));
    expect(slice.items.reduce((a: number, r: Row) => a + cents(r.cost), 0)).toBe(
      lines.byCategory.get(category),
    );
    const data = (await subscriptionsOf(`${period}&usageType=data&pageSize=200`)).json();
    const dataLines = await fromLines({
      from: MONTHS[0],
      to: MONTHS[2],
      usageType: 'data',
      subscriptionsOnly: true,
    });
    expect(cents(data.totalCost)).toBe(dataLines.total);
  });

  it('shows a client user only their sub-company, and answers 404 for ids outside the scope', async () => {
    const mine = (await subscriptionsOf(`${period}&pageSize=200`, app.tok.clientUser)).json();
    const linesA = await fromLines({
      from: MONTHS[0],
      to: MONTHS[2],
      subCompanyId: app.subA,
      subscriptionsOnly: true,
    });
    expect(mine.total).toBeGreaterThan(0);
    expect(cents(mine.totalCost)).toBe(linesA.total);
    expect(mine.items.every((r: Row) => r.subCompanyId === app.subA)).toBe(true);
    expect((await subscriptionsOf(`${period}&subCompanyId=${app.subB}`, app.tok.clientUser)).statusCode).toBe(
      404,
    );
    expect((await subscriptionsOf(`${period}&clientId=${other}`)).statusCode).toBe(404);
    expect(
      (await subscriptionsOf(`${period}&clientId=${app.clientId}`, app.tok.otherCompanyAdmin)).statusCode,
    ).toBe(404);
    await expectEachBadRequest(app.t, app.tok.companyAdmin, '/api/dashboard/cost-usage/subscriptions?', [
      'sort=cheapest',
      'page=0',
      'pageSize=1000',
      'from=2021-03&to=2021-01',
      'usageType=x',
    ]);
  });
});

describe('GET /api/reports/top-users', () => {
  const top = (query: string, token = app.tok.companyAdmin) =>
    app.t.inject({ method: 'GET', url: `/api/reports/top-users?${query}`, token });

  it('ranks the subscriptions by cost like the dashboard; totals are every line, the invoice-level ones apart', async () => {
    const res = await top(`${period}&pageSize=5`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    await expectReportTotals(body.totals);
    expect(body.items.map((i: { rank: number }) => i.rank)).toEqual(
      [1, 2, 3, 4, 5].slice(0, body.items.length),
    );
    const costs = body.items.map((i: { cost: string }) => cents(i.cost));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const page2 = (await top(`${period}&pageSize=5&page=2`)).json();
    expect(page2.items[0]?.rank).toBe(6);
    expect(cents(page2.items[0].cost)).toBeLessThanOrEqual(costs.at(-1));
  });

  it('counts only the plan-driven costs with optimizableOnly=true', async () => {
    const body = (await top(`${period}&optimizableOnly=true&pageSize=200`)).json();
    let expected = 0;
    for (const usageType of OPTIMIZABLE_USAGE_TYPES)
      expected += (await fromLines({ from: MONTHS[0], to: MONTHS[2], usageType, subscriptionsOnly: true }))
        .total;
    // Invoice-level charges are no plan's: none under optimizableOnly.
    expect(cents(body.totals.cost)).toBe(expected);
    expect(body.totals.invoiceLevelCost).toBe('0.00');
    const all = (await top(period)).json();
    expect(cents(body.totals.cost)).toBeLessThanOrEqual(cents(all.totals.cost));
  });

  it('needs the Top users permission, keeps to the Scope and refuses bad filters', async () => {
    // The demo client user was not given Top users.
    expect((await top(period, app.tok.clientUser)).statusCode).toBe(403);
    expect((await top(`${period}&clientId=${other}`, app.tok.admin)).statusCode).toBe(200);
    expect((await top(`${period}&clientId=${other}`)).statusCode).toBe(404);
    expect((await top(`optimizableOnly=yes`)).statusCode).toBe(400);
    expect((await top(`from=2021-05&to=2021-01`)).statusCode).toBe(400);
    expect((await top(period, app.tok.admin)).statusCode).toBe(400);
  });

  it('exports every ranked subscription of the filters as a workbook', async () => {
    const list = (await top(`${period}&pageSize=200`)).json();
    const { wb } = await getWorkbook(app.t, `/api/reports/top-users/export?${period}`, app.tok.companyAdmin);
    const ws = wb.worksheets[0]!;
    // Every ranked subscription, then the invoice-level charges: the cost column adds up to the
    // total cost the screen shows.
    expect(ws.rowCount - 2).toBe(list.total);
    const last = ws.getRow(ws.rowCount);
    expect(last.getCell(2).value).toBe('Invoice-level charges');
    expect(last.getCell(6).value).toBe(Number(list.totals.invoiceLevelCost));
    let sum = 0;
    for (let r = 2; r <= ws.rowCount; r++) sum += Math.round(Number(ws.getRow(r).getCell(6).value) * 100);
    expect(sum).toBe(cents(list.totals.cost));
    expect(ws.getRow(2).getCell(1).value).toBe(1);
    expect(ws.getRow(2).getCell(3).value).toBe(list.items[0].phoneNumber);
    expect(ws.getRow(2).getCell(6).value).toBe(Number(list.items[0].cost));
    expect(ws.getRow(2).getCell(6).numFmt).toContain('0.00');
  });
});

describe('GET /api/reports/base-plan-types', () => {
  it('splits the subscriptions and their cost by base plan group and plan group; totals are every line, the invoice-level ones apart', async () => {
    const res = await app.t.inject({
      method: 'GET',
      url: `/api/reports/base-plan-types?${period}`,
      token: app.tok.companyAdmin,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const lines = await expectReportTotals(body.totals);
    const sum = body.items.reduce((a: number, i: { cost: string }) => a + cents(i.cost), 0);
    expect(sum).toBe(lines.total);
    // Each subscription is on one plan now: the groups' counts add up to the subscriptions.
    expect(body.items.reduce((a: number, i: { subscriptions: number }) => a + i.subscriptions, 0)).toBe(
      body.totals.subscriptions,
    );
    const costs = body.items.map((i: { cost: string }) => cents(i.cost));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    const { wb } = await getWorkbook(
      app.t,
      `/api/reports/base-plan-types/export?${period}`,
      app.tok.companyAdmin,
    );
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount - 2).toBe(body.items.length);
    expect(ws.getRow(ws.rowCount).getCell(1).value).toBe('Invoice-level charges');
    let sheetSum = 0;
    for (let r = 2; r <= ws.rowCount; r++)
      sheetSum += Math.round(Number(ws.getRow(r).getCell(4).value) * 100);
    expect(sheetSum).toBe(cents(body.totals.cost));
    expect(
      (
        await app.t.inject({
          method: 'GET',
          url: `/api/reports/base-plan-types?clientId=${other}`,
          token: app.tok.companyAdmin,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('total cost, one definition', () => {
  it('dashboard, cost summaries, top users and base plan types answer the same total for a period, the invoice-level fees included', async () => {
    const all = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    const subscriptionLines = await fromLines({ from: MONTHS[0], to: MONTHS[2], subscriptionsOnly: true });
    // The generated invoices carry invoice-level lines (fees and credits of the invoice itself).
    expect(all.total).not.toBe(subscriptionLines.total);
    const answer = async (url: string) => {
      const res = await app.t.inject({ method: 'GET', url: `${url}?${period}`, token: app.tok.companyAdmin });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const dashboard = await answer('/api/dashboard/cost-usage');
    const summaries = await answer('/api/reports/cost-summaries');
    const top = await answer('/api/reports/top-users');
    const planTypes = await answer('/api/reports/base-plan-types');
    expect(cents(dashboard.totalCost)).toBe(all.total);
    expect(cents(summaries.totals.totalCost)).toBe(all.total);
    expect(cents(top.totals.cost)).toBe(all.total);
    expect(cents(planTypes.totals.cost)).toBe(all.total);
    // Broken down by subscription, the invoice-level charges are their own figure.
    expect(top.totals.invoiceLevelCost).toBe(planTypes.totals.invoiceLevelCost);
    const items = planTypes.items.reduce((a: number, i: { cost: string }) => a + cents(i.cost), 0);
    expect(items + cents(planTypes.totals.invoiceLevelCost)).toBe(all.total);
  });
});

describe('GET /api/reports/cost-summaries and usage-summaries', () => {
  const report = (name: string, query: string, token = app.tok.companyAdmin) =>
    app.t.inject({ method: 'GET', url: `/api/reports/${name}?${query}`, token });

  it('splits the organization’s cost into optimizable and other, equal to the invoice lines', async () => {
    const body = (await report('cost-summaries', period)).json();
    const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    let optimizable = 0;
    for (const usageType of OPTIMIZABLE_USAGE_TYPES)
      optimizable += (await fromLines({ from: MONTHS[0], to: MONTHS[2], usageType })).total;
    expect(body.items).toHaveLength(1);
    expect(cents(body.totals.totalCost)).toBe(lines.total);
    expect(cents(body.totals.optimizableCost)).toBe(optimizable);
    expect(cents(body.totals.otherCost)).toBe(lines.total - optimizable);
  });

  it('by cost center: the rows add up to the organization', async () => {
    const whole = (await report('cost-summaries', period)).json();
    const body = (await report('cost-summaries', `${period}&groupBy=costCenter`)).json();
    expect(body.items.length).toBeGreaterThanOrEqual(1);
    const sum = body.items.reduce((a: number, i: { totalCost: string }) => a + cents(i.totalCost), 0);
    expect(sum).toBe(cents(whole.totals.totalCost));
    expect(
      body.items.every((i: { costCenterId: number | null }) => i.costCenterId === null || i.costCenterId > 0),
    ).toBe(true);
  });

  it('sums the usage like the invoice lines, and exports both', async () => {
    const body = (await report('usage-summaries', period)).json();
    const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    expect(body.totals.voiceMinutes + body.totals.roamingVoiceMinutes).toBeCloseTo(lines.voice, 1);
    expect(body.totals.dataMb + body.totals.roamingDataMb).toBeCloseTo(lines.data, 1);
    for (const name of ['cost-summaries', 'usage-summaries']) {
      const { wb } = await getWorkbook(
        app.t,
        `/api/reports/${name}/export?${period}&groupBy=costCenter`,
        app.tok.companyAdmin,
      );
      expect(wb.worksheets[0]!.rowCount).toBeGreaterThanOrEqual(2);
    }
    expect((await report('cost-summaries', `groupBy=department`)).statusCode).toBe(400);
    expect((await report('usage-summaries', `clientId=${other}`)).statusCode).toBe(404);
  });
});

describe('GET /api/reports/overcharged-plans', () => {
  it('lists the months whose monthly fees were billed above the plan’s price, the difference to claim back', async () => {
    const { db } = app.t.deps.database;
    // A subscription with monthly fees in March, put on a plan priced one euro under what was billed.
    const { rows } = (await db.execute(sql`
      select f.subscription_id as id, sum(f.amount)::text as billed
      from monthly_facts f join cost_categories c on c.id = f.cost_category_id
      where f.client_id = ${app.clientId} and f.month = '2021-03-01' and c.usage_type = 'monthly_fee'
        and f.subscription_id is not null
      group by f.subscription_id having sum(f.amount) > 2
      order by f.subscription_id limit 1`)) as unknown as { rows: Array<{ id: number; billed: string }> };
    const [{ id, billed }] = rows;
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, id!));
    const [plan] = await db
      .insert(plans)
      .values({
        name: 'Audit test plan',
        operatorId: sub!.operatorId,
        planType: 'flat_rate',
        listPrice: (Number(billed) - 1).toFixed(2),
        scope: 'customer_specific',
        clientId: app.clientId,
      })
      .returning();
    await db.update(subscriptions).set({ currentPlanId: plan!.id }).where(eq(subscriptions.id, id!));
    try {
      const res = await app.t.inject({
        method: 'GET',
        url: `/api/reports/overcharged-plans?${period}&pageSize=200`,
        token: app.tok.companyAdmin,
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      const row = body.items.find((i: { subscriptionId: number; month: string }) => i.subscriptionId === id);
      expect(row).toMatchObject({ month: '2021-03', planName: 'Audit test plan', difference: '1.00' });
      expect(cents(row.billed)).toBe(cents(billed!));
      const sum = body.items.reduce((a: number, i: { difference: string }) => a + cents(i.difference), 0);
      expect(cents(body.totals.overcharge)).toBe(sum);
      expect(body.items.every((i: { difference: string }) => cents(i.difference) > 0)).toBe(true);
      // Largest difference first by default; any column either way, the totals whatever the order.
      const diffs = body.items.map((i: { difference: string }) => cents(i.difference));
      expect(diffs).toEqual([...diffs].sort((a, b) => b - a));
      const byPhone = (
        await app.t.inject({
          method: 'GET',
          url: `/api/reports/overcharged-plans?${period}&pageSize=200&sort=phoneNumber&order=asc`,
          token: app.tok.companyAdmin,
        })
      ).json();
      const phones = byPhone.items.map((i: { phoneNumber: string }) => i.phoneNumber);
      expect(phones).toEqual([...phones].sort());
      expect(byPhone.totals).toEqual(body.totals);
      // A contract price at what was billed: nothing to claim for it any more.
      await db
        .update(plans)
        .set({ contractPrice: Number(billed).toFixed(2) })
        .where(eq(plans.id, plan!.id));
      const after = (
        await app.t.inject({
          method: 'GET',
          url: `/api/reports/overcharged-plans?${period}&pageSize=200`,
          token: app.tok.companyAdmin,
        })
      ).json();
      expect(after.items.some((i: { subscriptionId: number }) => i.subscriptionId === id)).toBe(false);
    } finally {
      await db
        .update(subscriptions)
        .set({ currentPlanId: sub!.currentPlanId })
        .where(eq(subscriptions.id, id!));
      await db.delete(plans).where(eq(plans.id, plan!.id));
    }
    expect(
      (
        await app.t.inject({
          method: 'GET',
          url: `/api/reports/overcharged-plans?clientId=${other}`,
          token: app.tok.companyAdmin,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/reports/unused-subscriptions', () => {
  const unused = (query: string, token = app.tok.companyAdmin) =>
    app.t.inject({ method: 'GET', url: `/api/reports/unused-subscriptions?${query}`, token });

  it('lists the subscriptions billed in each of the last N months and used in none, most expensive first', async () => {
    const { db } = app.t.deps.database;
    // Two subscriptions billed in the latest month (March): one made unused (its usage cleared), one used.
    const { rows } = (await db.execute(sql`
      select subscription_id as id from monthly_facts
      where client_id = ${app.clientId} and subscription_id is not null and month = '2021-03-01'
      group by subscription_id
      order by subscription_id limit 2`)) as unknown as { rows: Array<{ id: number }> };
    const [idle, busy] = rows.map((r) => r.id);
    expect(busy).toBeDefined();
    const saved = await db
      .select()
      .from(monthlyFacts)
      .where(inArray(monthlyFacts.subscriptionId, [idle!, busy!]));
    await db
      .update(monthlyFacts)
      .set({ quantity: null, unit: null })
      .where(eq(monthlyFacts.subscriptionId, idle!));
    const [oneOfBusy] = saved.filter((f) => f.subscriptionId === busy && f.month === '2021-03-01');
    await db
      .update(monthlyFacts)
      .set({ quantity: '5', unit: 'min' })
      .where(eq(monthlyFacts.id, oneOfBusy!.id));
    try {
      const res = await unused('months=1&pageSize=200');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ months: 1, from: '2021-03', to: '2021-03' });
      const ids = body.items.map((i: { subscriptionId: number }) => i.subscriptionId);
      expect(ids).toContain(idle);
      expect(ids).not.toContain(busy);
      const row = body.items.find((i: { subscriptionId: number }) => i.subscriptionId === idle);
      const cost = saved
        .filter((f) => f.subscriptionId === idle && f.month === '2021-03-01')
        .reduce((a, f) => a + cents(f.amount), 0);
      expect(cents(row.cost)).toBe(cost);
      expect(cents(row.monthlyCost)).toBe(cost);
      const costs = body.items.map((i: { cost: string }) => cents(i.cost));
      expect(costs).toEqual([...costs].sort((a, b) => b - a));
      expect(cents(body.totals.cost)).toBe(costs.reduce((a: number, c: number) => a + c, 0));
      expect(body.totals.subscriptions).toBe(body.total);
      // Sorted by a column on request; cheapest first when asked.
      const byPhone = (await unused('months=1&pageSize=200&sort=phoneNumber&order=desc')).json();
      const phones = byPhone.items.map((i: { phoneNumber: string }) => i.phoneNumber);
      expect(phones).toEqual([...phones].sort().reverse());
      const cheapest = (await unused('months=1&pageSize=200&sort=cost&order=asc')).json();
      expect(cheapest.items.map((i: { cost: string }) => cents(i.cost))).toEqual([...costs].reverse());
      expect((await unused('sort=nope')).statusCode).toBe(400);
      // Without N: the client's Unused Month Count (3 by default).
      expect((await unused('')).json().months).toBe(3);
      // The export holds the same rows.
      const { wb } = await getWorkbook(
        app.t,
        '/api/reports/unused-subscriptions/export?months=1',
        app.tok.companyAdmin,
      );
      expect(wb.worksheets[0]!.rowCount - 1).toBe(body.total);

      // Ending at a chosen month (issue 37 item 19): February's window holds February's
      // subscriptions (March's idle one is not on February's invoice), not the latest month's.
      const { rows: inFeb } = (await db.execute(sql`
        select distinct subscription_id as id from monthly_facts
        where client_id = ${app.clientId} and month = '2021-02-01' and subscription_id is not null
        order by 1`)) as unknown as { rows: Array<{ id: number }> };
      const febIds = new Set(inFeb.map((r) => r.id));
      const febIdle = inFeb[0]!.id;
      saved.push(...(await db.select().from(monthlyFacts).where(eq(monthlyFacts.subscriptionId, febIdle))));
      await db
        .update(monthlyFacts)
        .set({ quantity: null, unit: null })
        .where(eq(monthlyFacts.subscriptionId, febIdle));
      const feb = (await unused('months=1&to=2021-02&pageSize=200')).json();
      expect(feb).toMatchObject({ months: 1, from: '2021-02', to: '2021-02' });
      expect(feb.items.map((i: { subscriptionId: number }) => i.subscriptionId)).toContain(febIdle);
      expect(feb.items.every((i: { subscriptionId: number }) => febIds.has(i.subscriptionId))).toBe(true);
      expect(febIds.has(idle!)).toBe(false);
      const { wb: febBook } = await getWorkbook(
        app.t,
        '/api/reports/unused-subscriptions/export?months=1&to=2021-02',
        app.tok.companyAdmin,
      );
      expect(febBook.worksheets[0]!.rowCount - 1).toBe(feb.total);
      // A window after the last invoice holds nothing.
      expect((await unused('months=1&to=2099-12')).json()).toMatchObject({ to: '2099-12', total: 0 });
    } finally {
      for (const f of saved)
        await db
          .update(monthlyFacts)
          .set({ quantity: f.quantity, unit: f.unit })
          .where(eq(monthlyFacts.id, f.id));
    }
  });

  it('keeps to the Scope and refuses a bad N', async () => {
    expect((await unused(`clientId=${other}`)).statusCode).toBe(404);
    // The demo client user was not given the report.
    expect((await unused('', app.tok.clientUser)).statusCode).toBe(403);
    expect((await unused('months=0')).statusCode).toBe(400);
    expect((await unused('months=abc')).statusCode).toBe(400);
    expect((await unused('to=2021-13')).statusCode).toBe(400);
    expect((await unused('', app.tok.admin)).statusCode).toBe(400);
  });
});

describe('GET /api/dashboard/cost-usage after the facts change', () => {
  // Last: changes the facts under the pre-aggregates.
  it('follows facts that are re-categorized or deleted (the pre-aggregates stay equal to the lines)', async () => {
    const { db } = app.t.deps.database;
    const lines = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    const [from, to] = [...lines.byCategory.keys()].filter((k) => k != null) as number[];
    // Re-categorize one category's facts (as approving a cost element does).
    await db.update(monthlyFacts).set({ costCategoryId: to }).where(eq(monthlyFacts.costCategoryId, from));
    const moved = (await get(period)).json();
    const cost = (id: number) =>
      cents(moved.byCategory.find((c: { costCategoryId: number }) => c.costCategoryId === id)?.cost ?? '0');
    expect(cost(from)).toBe(0);
    expect(cost(to)).toBe(lines.byCategory.get(from)! + lines.byCategory.get(to)!);
    expect(cents(moved.totalCost)).toBe(lines.total);

    // Delete February's invoices (their facts go by cascade).
    await db
      .delete(invoices)
      .where(and(eq(invoices.clientId, app.clientId), eq(invoices.periodStart, '2021-02-01')));
    const after = (await get(period)).json();
    const left = await fromLines({ from: MONTHS[0], to: MONTHS[2] });
    expect(left.total).toBeLessThan(lines.total);
    expect(cents(after.totalCost)).toBe(left.total);
    expect(after.months[1]).toMatchObject({ month: '2021-02', cost: '0.00', voiceMinutes: 0 });
    const users = (await get(`${period}&subCompanyId=${app.subA}`)).json().byUser;
    const [{ n }] = (
      (await db.execute(sql`
        select count(distinct l.subscription_id)::int as n from invoice_lines l join invoices i on i.id = l.invoice_id
        where i.client_id = ${app.clientId} and i.sub_company_id = ${app.subA} and l.subscription_id is not null
          and i.period_start between '2021-01-01' and '2021-03-01'`)) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows;
    expect(users.total).toBe(n);
    // Nothing left behind for the deleted month.
    const empty = await db
      .select()
      .from(monthlyCostSummary)
      .where(eq(monthlyCostSummary.month, '2021-02-01'));
    expect(empty).toEqual([]);
    const emptySubs = await db
      .select()
      .from(subscriptionMonthCost)
      .where(eq(subscriptionMonthCost.month, '2021-02-01'));
    expect(emptySubs).toEqual([]);
    const emptyCategories = await db
      .select()
      .from(subscriptionCategoryMonthCost)
      .where(eq(subscriptionCategoryMonthCost.month, '2021-02-01'));
    expect(emptyCategories).toEqual([]);
  });
});

describe('GET /api/dashboard/cost-usage from memory', () => {
  it('answers a repeated request from memory, and afresh once a name, a shared category or the facts change', async () => {
    const { db } = app.t.deps.database;
    const first = (await get(period)).json();
    const before = dashboardCacheStats();
    expect((await get(period)).json()).toEqual(first);
    expect(dashboardCacheStats().hits).toBe(before.hits + 1);

    // A sub-company renamed: the next answer shows the name.
    const [sub] = await db.select().from(subCompanies).where(eq(subCompanies.id, app.subA));
    await db.update(subCompanies).set({ name: 'Uusi Nimi Oy' }).where(eq(subCompanies.id, app.subA));
    const renamed = (await get(period)).json();
    expect(renamed.bySubCompany.map((s: { name: string }) => s.name)).toContain('Uusi Nimi Oy');
    await db.update(subCompanies).set({ name: sub.name }).where(eq(subCompanies.id, app.subA));

    // A cost category (shared by every client) renamed.
    const category = renamed.byCategory[0].costCategoryId as number;
    const [cat] = await db.select().from(costCategories).where(eq(costCategories.id, category));
    await db.update(costCategories).set({ name: 'Renamed category' }).where(eq(costCategories.id, category));
    const recategorized = (await get(period)).json();
    expect(
      recategorized.byCategory.find((c: { costCategoryId: number }) => c.costCategoryId === category).name,
    ).toBe('Renamed category');
    await db.update(costCategories).set({ name: cat.name }).where(eq(costCategories.id, category));

    // The facts: one month's costs gone.
    const total = cents((await get(period)).json().totalCost);
    await db
      .delete(invoices)
      .where(and(eq(invoices.clientId, app.clientId), eq(invoices.periodStart, '2021-01-01')));
    expect(cents((await get(period)).json().totalCost)).toBeLessThan(total);
  });
});

describe('the cost-element choices (GET /api/dashboard/cost-usage/cost-elements)', () => {
  const period = `from=${MONTHS[0]}&to=${MONTHS[2]}`;
  const elements = async (query: string) => {
    const res = await app.t.inject({
      method: 'GET',
      url: `/api/dashboard/cost-usage/cost-elements?${query}`,
      token: app.tok.companyAdmin,
    });
    expect(res.statusCode).toBe(200);
    return res.json<Array<{ costElementId: number; name: string; cost: string }>>();
  };

  it('offers the cost elements with cost in the period, largest first, adding up to the dashboard’s total', async () => {
    const list = await elements(period);
    expect(list.length).toBeGreaterThan(1);
    const costs = list.map((e) => cents(e.cost));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(costs.reduce((s, c) => s + c, 0)).toBe(cents((await get(period)).json().totalCost));
  });

  it('each choice, as the dashboard’s filter, gives the dashboard that element’s cost', async () => {
    const [first, second] = await elements(period);
    for (const e of [first!, second!]) {
      const body = (await get(`${period}&costElementId=${e.costElementId}`)).json();
      expect(body.totalCost).toBe(e.cost);
    }
  });

  it('keeps offering the other elements while one is chosen, and follows the other filters', async () => {
    const all = await elements(period);
    expect(await elements(`${period}&costElementId=${all[0]!.costElementId}`)).toEqual(all);
    const ofA = await elements(`${period}&subCompanyId=${app.subA}`);
    const totalA = cents((await get(`${period}&subCompanyId=${app.subA}`)).json().totalCost);
    expect(ofA.reduce((s, e) => s + cents(e.cost), 0)).toBe(totalA);
  });

  it('answers bad filters 400, not 500', async () => {
    await expectEachBadRequest(app.t, app.tok.companyAdmin, '/api/dashboard/cost-usage/cost-elements?', [
      'from=2021-03&to=2021-01',
      'usageType=x',
      'costElementId=abc',
    ]);
  });
});
