import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  optimizationMarks,
  optimizationResults,
  optimizationRuns,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import { useLimitedClientUser } from '../../test/fixtures.js';
import { DEMO } from '../../test/helpers.js';
import { uploadMonths } from '../../test/uploads.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

// The client user reads invoices and dashboards in one sub-company (A; B is another of the same
// client), but not optimization.
const app = useLimitedClientUser(['general', 'dashboards', 'invoices.upload'], { jobs: true });
/** Invoices uploaded for A (two months) and B (one). */
const invA: number[] = [];
let invB: number;

const cents = (s: string | null | undefined) => Math.round(Number(s ?? 0) * 100);
const sumCents = (xs: Array<string | null>) => xs.reduce((a, x) => a + cents(x), 0);

beforeAll(async () => {
  for (const [sub, months, seed] of [
    [app.subA, ['2022-01', '2022-02'], 910],
    [app.subB, ['2022-01'], 920],
  ] as const) {
    const ids = await uploadMonths(
      app.t,
      app.tok.companyAdmin,
      { operator: 'elisa', subscriptions: 6, seed, months },
      { subCompanyId: sub },
    );
    if (sub === app.subA) invA.push(...ids);
    else invB = ids[0]!;
  }
}, 180_000);

const get = (url: string, token = app.tok.companyAdmin) => app.t.inject({ method: 'GET', url, token });

/** Every subscription of an invoice, through the paged API. */
async function allSubscriptionsOf(id: number, pageSize = 4) {
  const items = [];
  for (let page = 1; ; page++) {
    const res = await get(`/api/invoices/${id}/subscriptions?page=${page}&pageSize=${pageSize}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    items.push(...body.items);
    if (page * pageSize >= body.total) return { items, total: body.total as number };
  }
}

describe('invoice detail', () => {
  it('answers totals, cost by category and paged subscriptions whose figures equal the lines', async () => {
    const id = invA[0];
    const res = await get(`/api/invoices/${id}`);
    expect(res.statusCode).toBe(200);
    const inv = res.json();
    expect(inv).not.toHaveProperty('lines');
    // Cost by category adds up to the invoice total excluding VAT.
    expect(sumCents(inv.byCategory.map((c: { cost: string }) => c.cost))).toBe(cents(inv.totalExclVat));

    const { items, total } = await allSubscriptionsOf(id);
    expect(total).toBe(inv.subscriptionCount);
    expect(new Set(items.map((s) => s.subscriptionId)).size).toBe(total);
    for (const s of items) {
      expect(s.lines.length).toBeGreaterThan(0);
      expect(sumCents(s.lines.map((l: { amount: string }) => l.amount))).toBe(cents(s.total));
      expect(s.subCompanyId).toBe(app.subA);
    }
    // Every line once: the subscriptions' lines and the invoice-level lines.
    const lines = items.reduce((n, s) => n + s.lines.length, 0) + inv.otherLines.length;
    expect(lines).toBe(inv.lineCount);
    const all = [...items.flatMap((s) => s.lines), ...inv.otherLines];
    expect(sumCents(all.map((l) => l.amount))).toBe(cents(inv.totalExclVat));
  });

  it('sorts, searches and pages the subscriptions', async () => {
    const id = invA[0];
    const byTotal = await get(`/api/invoices/${id}/subscriptions?sort=total&order=desc&pageSize=200`);
    const totals = byTotal.json().items.map((s: { total: string }) => cents(s.total));
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const first = byTotal.json().items[0];
    const found = await get(
      `/api/invoices/${id}/subscriptions?q=${encodeURIComponent(first.phoneNumber.slice(-6))}`,
    );
    expect(found.json().items.map((s: { subscriptionId: number }) => s.subscriptionId)).toContain(
      first.subscriptionId,
    );
    expect(found.json().total).toBeLessThan(byTotal.json().total);
    const p1 = (await get(`/api/invoices/${id}/subscriptions?pageSize=2&page=1`)).json();
    const p2 = (await get(`/api/invoices/${id}/subscriptions?pageSize=2&page=2`)).json();
    expect(p1.items).toHaveLength(2);
    expect(p2.items).toHaveLength(2);
    expect(p1.items[0].subscriptionId).not.toBe(p2.items[0].subscriptionId);
    const far = (await get(`/api/invoices/${id}/subscriptions?page=999`)).json();
    expect(far).toMatchObject({ items: [], total: p1.total });
  });

  it('refuses bad ids, paging and sort with 400 in the caller language', async () => {
    for (const url of [
      '/api/invoices/abc/subscriptions',
      '/api/invoices/0/subscriptions',
      `/api/invoices/${invA[0]}/subscriptions?sort=nope`,
      `/api/invoices/${invA[0]}/subscriptions?pageSize=1000`,
      `/api/invoices/${invA[0]}/subscriptions?q=%00`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message, url).toBeTruthy();
    }
  });

  it("answers 404 for another client's invoice and for a client user outside their sub-company", async () => {
    expect((await get(`/api/invoices/${invA[0]}`, app.tok.otherCompanyAdmin)).statusCode).toBe(404);
    expect((await get(`/api/invoices/${invA[0]}/subscriptions`, app.tok.otherCompanyAdmin)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/invoices/${invB}/subscriptions`, app.tok.clientUser)).statusCode).toBe(404);
    expect((await get(`/api/invoices/${invB}`, app.tok.clientUser)).statusCode).toBe(404);
    const mine = await get(`/api/invoices/${invA[0]}`, app.tok.clientUser);
    expect(mine.statusCode).toBe(200);
    // A limited user does not see invoice-level lines, which belong to no sub-company.
    expect(mine.json().otherLines).toEqual([]);
    expect((await get(`/api/invoices/999999/subscriptions`)).statusCode).toBe(404);
  });
});

describe('subscription detail', () => {
  const subscriptionOn = async (invoiceId: number) =>
    (await get(`/api/invoices/${invoiceId}/subscriptions?sort=total&order=desc`)).json().items[0];

  it('answers months, cost by category and invoices that equal the lines', async () => {
    const s = await subscriptionOn(invA[1]);
    const res = await get(`/api/subscriptions/${s.subscriptionId}`);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({
      id: s.subscriptionId,
      phoneNumber: s.phoneNumber,
      subCompanyId: app.subA,
      operatorName: 'Elisa',
    });
    const { rows } = (await app.t.deps.database.db.execute(sql`
      select to_char(i.period_start, 'YYYY-MM') as month, i.id as "invoiceId", sum(l.amount)::text as cost,
             coalesce(sum(l.quantity) filter (where l.unit = 'min'), 0)::text as voice,
             coalesce(sum(l.quantity) filter (where l.unit = 'mb'), 0)::text as data
      from invoice_lines l join invoices i on i.id = l.invoice_id
      where l.subscription_id = ${s.subscriptionId}
      group by 1, 2 order by 1`)) as unknown as {
      rows: Array<{ month: string; invoiceId: number; cost: string; voice: string; data: string }>;
    };
    expect(d.months.map((m: { month: string }) => m.month)).toEqual(rows.map((r) => r.month));
    for (const [i, r] of rows.entries()) {
      expect(cents(d.months[i].cost)).toBe(cents(r.cost));
      expect(d.months[i].voiceMinutes).toBeCloseTo(Number(r.voice), 2);
      expect(d.months[i].dataMb).toBeCloseTo(Number(r.data), 2);
    }
    const all = sumCents(rows.map((r) => r.cost));
    expect(cents(d.totalCost)).toBe(all);
    expect(sumCents(d.byCategory.map((c: { cost: string }) => c.cost))).toBe(all);
    expect(d.invoices.map((i: { invoiceId: number }) => i.invoiceId).sort()).toEqual(
      rows.map((r) => Number(r.invoiceId)).sort(),
    );
    expect(sumCents(d.invoices.map((i: { amount: string }) => i.amount))).toBe(all);

    // A period without costs: nothing by category.
    const empty = (await get(`/api/subscriptions/${s.subscriptionId}?from=2019-01&to=2019-03`)).json();
    expect(empty).toMatchObject({ from: '2019-01', to: '2019-03', byCategory: [], totalCost: '0.00' });
    expect(empty.months.length).toBe(d.months.length);
  });

  it('refuses bad ids and periods with 400', async () => {
    await expectEachBadRequest(app.t, app.tok.companyAdmin, '/api/subscriptions/', [
      'abc',
      '0',
      '99999999999',
      '1?from=2022-13',
      '1?from=2022-05&to=2022-01',
    ]);
  });

  it("answers 404 for another client's subscription and outside a client user's sub-company", async () => {
    const a = await subscriptionOn(invA[0]);
    const b = await subscriptionOn(invB);
    expect((await get(`/api/subscriptions/${a.subscriptionId}`, app.tok.otherCompanyAdmin)).statusCode).toBe(
      404,
    );
    expect((await get(`/api/subscriptions/${b.subscriptionId}`, app.tok.clientUser)).statusCode).toBe(404);
    expect((await get(`/api/subscriptions/${a.subscriptionId}`, app.tok.clientUser)).statusCode).toBe(200);
    expect((await get('/api/subscriptions/999999', app.tok.admin)).statusCode).toBe(404);
  });

  it('shows the optimization finding with its reason in the reader language and its mark', async () => {
    const { db } = app.t.deps.database;
    // Imports queue a re-optimization: let it finish, then put a known finding in its place.
    for (const end = Date.now() + 60_000; ;) {
      const busy = await db
        .select({ id: optimizationRuns.id })
        .from(optimizationRuns)
        .where(
          and(
            eq(optimizationRuns.clientId, app.clientId),
            inArray(optimizationRuns.status, ['queued', 'running']),
          ),
        );
      if (!busy.length) break;
      if (Date.now() > end) throw new Error('optimization still running');
      await new Promise((r) => setTimeout(r, 250));
    }
    await db.delete(optimizationResults).where(eq(optimizationResults.clientId, app.clientId));
    const s = await subscriptionOn(invA[0]);
    // Not optimized yet.
    expect((await get(`/api/subscriptions/${s.subscriptionId}`)).json().finding).toBeNull();
    const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, s.subscriptionId));
    const [run] = await db
      .insert(optimizationRuns)
      .values({ clientId: app.clientId, trigger: 'manual', status: 'succeeded' })
      .returning();
    await db.insert(optimizationResults).values({
      clientId: app.clientId,
      runId: run.id,
      subscriptionId: sub.id,
      operatorId: sub.operatorId,
      kind: 'optimized',
      currentPlanId: sub.currentPlanId,
      bestPlanId: sub.currentPlanId,
      currentMonthlyCents: 3990,
      bestMonthlyCents: 1990,
      monthlySavingCents: 2000,
      reasonCode: 'cheaper_fee',
      reasonParams: { bestMonthlyCents: 1990, currentMonthlyCents: 3990, contractPrice: 0 },
      monthsUsed: 6,
    });
    await db.insert(optimizationMarks).values({
      clientId: app.clientId,
      subscriptionId: sub.id,
      kind: 'optimized',
      monthlySavingCents: 2000,
    });
    const en = (await get(`/api/subscriptions/${sub.id}`)).json();
    expect(en.finding).toMatchObject({
      kind: 'optimized',
      currentMonthlyCost: '39.90',
      bestMonthlyCost: '19.90',
      monthlySaving: '20.00',
      yearlySaving: '240.00',
      monthsUsed: 6,
      reason: 'the same use costs €19.90 instead of €39.90 a month',
      mark: { status: 'open', realisedMonth: null },
    });
    await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
    const fiTok = await app.t.login(DEMO.companyAdmin);
    const fi = (await get(`/api/subscriptions/${sub.id}`, fiTok)).json();
    expect(fi.finding.reason).toBe('sama käyttö maksaa 19,90 € eikä 39,90 € kuukaudessa');
    await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    // Without optimization.view the finding is not shown.
    expect((await get(`/api/subscriptions/${sub.id}`, app.tok.clientUser)).json().finding).toBeNull();
  });
});
