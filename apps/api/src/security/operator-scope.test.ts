import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generateInvoice } from '@kulu/invoices';
import { subscriptions, users } from '../db/schema/index.js';
import { BUYER, createTestApp, DEMO, DEMO_PASSWORD, operatorIdOf, type TestApp } from '../test/helpers.js';
import { settled, uploadFiles } from '../test/uploads.js';
import { getWorkbook } from '../test/workbook.js';

/**
 * Issue 22, item 1: the operator chosen at sign-in (or in the header) limits every view of client
 * data through the request's Scope; "all operators" (no choice) sees them all; a choice never widens
 * what the caller sees.
 */
let t: TestApp;
let pohjola: number;
let elisa: number;
let telia: number;
const tok: Record<'all' | 'elisa' | 'other', string> = { all: '', elisa: '', other: '' };
const PERIOD = 'from=2021-01&to=2021-02';

const signIn = (email: string, operatorId?: number | null, lang?: string) =>
  t.inject({
    method: 'POST',
    url: '/api/Account/login',
    payload: { email, password: DEMO_PASSWORD, ...(operatorId === undefined ? {} : { operatorId }) },
    headers: lang ? { 'accept-language': lang } : {},
  });

async function tokenFor(email: string, operatorId?: number) {
  const res = await signIn(email, operatorId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().access_token as string;
}

const get = async (url: string, token: string) => {
  const res = await t.inject({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
};

/** What Pohjola's invoices of the period add up to: one operator's, or all (null). */
async function invoiceSum(operatorId: number | null): Promise<number> {
  const { rows } = (await t.deps.database.db.execute(sql`
    select coalesce(sum(l.amount), 0)::text as cost
    from invoice_lines l join invoices i on i.id = l.invoice_id
    where i.client_id = ${pohjola} and i.period_start between '2021-01-01' and '2021-02-01'
      and (${operatorId}::int is null or i.operator_id = ${operatorId}::int)`)) as unknown as {
    rows: Array<{ cost: string }>;
  };
  return Number(rows[0]!.cost);
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  const { db } = t.deps.database;
  elisa = await operatorIdOf(t, 'Elisa');
  telia = await operatorIdOf(t, 'Telia');
  pohjola = (await db.select().from(users).where(eq(users.email, DEMO.companyAdmin)))[0]!.clientId!;
  tok.all = await tokenFor(DEMO.companyAdmin);
  tok.elisa = await tokenFor(DEMO.companyAdmin, elisa);
  tok.other = await tokenFor(DEMO.otherCompanyAdmin);
  for (const [operator, seed] of [
    ['elisa', 910],
    ['telia', 920],
  ] as const) {
    const files = await Promise.all(
      ['2021-01', '2021-02'].map(async (m, i) => ({
        name: `${operator}-${m}.pdf`,
        data: (
          await generateInvoice({
            operator,
            subscriptions: 4,
            seed: seed + i,
            invoiceDate: `${m}-15`,
            buyer: BUYER.pohjola,
          })
        ).pdf,
      })),
    );
    const res = await uploadFiles(t, tok.all, files);
    expect(res.statusCode, res.body).toBe(200);
    for (const r of res.json().results) {
      const done = await settled(t, tok.all, r.invoiceId);
      expect(done, `${done.errorCode}: ${done.errorDetail}`).toMatchObject({ uploadState: 'uploaded' });
    }
  }
}, 240_000);
afterAll(async () => {
  await t?.close();
});

describe('the operator chosen at sign-in', () => {
  it('is the sign-in OperatorId; without one a company with several operators sees all of them', async () => {
    expect((await get('/api/Account/GetClientInfo', tok.elisa)).loggedInOperatorID).toBe(elisa);
    const all = await get('/api/Account/GetClientInfo', tok.all);
    expect(all.loggedInOperatorID).toBeNull();
    expect(all.operators.map((o: { id: number }) => o.id).sort()).toEqual([elisa, telia].sort());
  });

  it('limits the cost dashboard to Elisa’s invoices: they differ from all operators’ and equal Elisa’s sum', async () => {
    const [elisaSum, allSum] = [await invoiceSum(elisa), await invoiceSum(null)];
    expect(elisaSum).toBeGreaterThan(0);
    expect(elisaSum).toBeLessThan(allSum);
    // All operators first, then Elisa: the kept answer of the first is not the second's.
    const all = await get(`/api/dashboard/cost-usage?${PERIOD}`, tok.all);
    const mine = await get(`/api/dashboard/cost-usage?${PERIOD}`, tok.elisa);
    expect(Number(all.totalCost)).toBeCloseTo(allSum, 2);
    expect(Number(mine.totalCost)).toBeCloseTo(elisaSum, 2);
  });

  it('limits the reports (cost summaries) and their Excel export to Elisa', async () => {
    const mine = await get(`/api/reports/cost-summaries?${PERIOD}`, tok.elisa);
    const all = await get(`/api/reports/cost-summaries?${PERIOD}`, tok.all);
    expect(Number(mine.totals.totalCost)).toBeCloseTo(await invoiceSum(elisa), 2);
    expect(Number(all.totals.totalCost)).toBeCloseTo(await invoiceSum(null), 2);
    const { wb } = await getWorkbook(t, `/api/reports/cost-summaries/export?${PERIOD}`, tok.elisa);
    const values = wb.worksheets[0]!.getSheetValues()
      .flat()
      .filter((v) => typeof v === 'number');
    expect(values.some((v) => Math.abs(Number(v) - Number(mine.totals.totalCost)) < 0.005)).toBe(true);
    expect(values.some((v) => Math.abs(Number(v) - Number(all.totals.totalCost)) < 0.005)).toBe(false);
  });

  it('limits the subscriptions (dashboard list and detail) and plan details to Elisa’s', async () => {
    const { db } = t.deps.database;
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, pohjola));
    const teliaSub = subs.find((s) => s.operatorId === telia)!;
    const list = await get(`/api/dashboard/cost-usage/subscriptions?${PERIOD}&pageSize=100`, tok.elisa);
    const allList = await get(`/api/dashboard/cost-usage/subscriptions?${PERIOD}&pageSize=100`, tok.all);
    expect(list.total).toBeLessThan(allList.total);
    const elisaIds = new Set(subs.filter((s) => s.operatorId === elisa).map((s) => s.id));
    expect(list.items.every((s: { subscriptionId: number }) => elisaIds.has(s.subscriptionId))).toBe(true);
    expect(
      (await t.inject({ method: 'GET', url: `/api/subscriptions/${teliaSub.id}`, token: tok.elisa }))
        .statusCode,
    ).toBe(404);
    await get(`/api/subscriptions/${teliaSub.id}`, tok.all);

    const plans = await get('/api/plan-details?pageSize=100', tok.elisa);
    const allPlans = await get('/api/plan-details?pageSize=100', tok.all);
    expect(plans.items.length).toBeGreaterThan(0);
    expect(plans.items.every((p: { operatorId: number }) => p.operatorId === elisa)).toBe(true);
    expect(allPlans.items.some((p: { operatorId: number }) => p.operatorId === telia)).toBe(true);
  });

  it('limits the invoice list to Elisa’s invoices', async () => {
    const mine = await get('/api/invoices?month=2021-01&pageSize=100', tok.elisa);
    const all = await get('/api/invoices?month=2021-01&pageSize=100', tok.all);
    expect(mine.items.map((i: { operatorId: number }) => i.operatorId)).toEqual([elisa]);
    expect(all.items.map((i: { operatorId: number }) => i.operatorId).sort()).toEqual([elisa, telia].sort());
  });

  it('scheduled report archive exports keep the operator: the file holds Elisa’s costs, the archive lists by operator', async () => {
    const schedule = (token: string) =>
      t.inject({
        method: 'POST',
        url: '/api/report-exports',
        token,
        payload: { kind: 'costs-usage', from: '2021-01', to: '2021-02' },
      });
    const mine = await schedule(tok.elisa);
    expect(mine.statusCode, mine.body).toBe(202);
    const everyone = await schedule(tok.all);
    expect(everyone.statusCode, everyone.body).toBe(202);
    for (const id of [mine.json().id, everyone.json().id]) {
      await expect
        .poll(
          async () =>
            (await get('/api/report-exports?pageSize=100', tok.all)).items.find(
              (i: { id: number }) => i.id === id,
            )?.status,
          {
            timeout: 60_000,
          },
        )
        .toBe('ready');
    }
    const costOf = async (id: number) => {
      const { wb } = await getWorkbook(t, `/api/report-exports/${id}/file`, tok.all);
      const cats = wb.getWorksheet('Cost categories')!;
      let sum = 0;
      for (let r = 2; r <= cats.rowCount; r++) sum += Number(cats.getRow(r).getCell(4).value);
      return sum;
    };
    expect(await costOf(mine.json().id)).toBeCloseTo(await invoiceSum(elisa), 2);
    expect(await costOf(everyone.json().id)).toBeCloseTo(await invoiceSum(null), 2);
    const listed = (await get('/api/report-exports?pageSize=100', tok.elisa)).items.map(
      (i: { id: number }) => i.id,
    );
    expect(listed).toContain(mine.json().id);
    expect(listed).not.toContain(everyone.json().id);
  });

  it('changes with the header’s choice (a new token): to all operators and back to one', async () => {
    const to = async (operatorId: number | null) => {
      const res = await t.inject({
        method: 'POST',
        url: '/api/session/operator',
        token: tok.elisa,
        payload: { operatorId },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().loggedInOperatorID).toBe(operatorId);
      return res.json().access_token as string;
    };
    const allToken = await to(null);
    expect(Number((await get(`/api/dashboard/cost-usage?${PERIOD}`, allToken)).totalCost)).toBeCloseTo(
      await invoiceSum(null),
      2,
    );
    const teliaToken = await to(telia);
    expect(Number((await get(`/api/dashboard/cost-usage?${PERIOD}`, teliaToken)).totalCost)).toBeCloseTo(
      await invoiceSum(telia),
      2,
    );
  });
});

describe('an operator choice never widens the scope', () => {
  it('refuses an operator the company has no contract with, in the user’s language, at sign-in and in the header', async () => {
    const en = await signIn(DEMO.otherCompanyAdmin, elisa);
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      code: 'unknownOperator',
      message: expect.stringMatching(/no contract/),
    });
    const fi = await signIn(DEMO.otherCompanyAdmin, elisa, 'fi');
    expect(fi.json().message).toMatch(/ei ole sopimusta/);
    const header = await t.inject({
      method: 'POST',
      url: '/api/session/operator',
      token: tok.other,
      payload: { operatorId: telia },
    });
    expect(header.statusCode).toBe(400);
    expect(header.json().code).toBe('unknownOperator');
  });

  it('a token naming another company’s operator still sees only its own company', async () => {
    const [other] = await t.deps.database.db
      .select()
      .from(users)
      .where(eq(users.email, DEMO.otherCompanyAdmin));
    const forged = await t.deps.tokens.sign({
      sub: other!.id,
      role: other!.roleId,
      cid: other!.clientId,
      op: elisa,
      tv: other!.tokenVersion,
    });
    const res = await t.inject({
      method: 'GET',
      url: `/api/dashboard/cost-usage?clientId=${pohjola}`,
      token: forged,
    });
    expect(res.statusCode).toBe(404);
    const invoices = await get('/api/invoices?pageSize=100', forged);
    expect(invoices.items.filter((i: { clientId: number }) => i.clientId === pohjola)).toEqual([]);
    const own = await get(`/api/dashboard/cost-usage?${PERIOD}`, forged);
    expect(own.clientId).toBe(other!.clientId);
    expect(Number(own.totalCost)).toBe(0);
  });
});
