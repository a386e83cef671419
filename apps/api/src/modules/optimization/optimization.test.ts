import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataLine, feeLine, importParsed } from '../../test/import-parsed.js';
import { and, asc, eq } from 'drizzle-orm';
import type { InvoiceLine, InvoiceSubscription } from '@kulu/invoices';
import {
  clientOperators,
  operators,
  optimizationMarks,
  optimizationResults,
  optimizationRuns,
  plans,
  subscriptions,
} from '../../db/schema/index.js';
import {
  BUYER,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  limitDemoClientUser,
  type TestApp,
} from '../../test/helpers.js';
import { generateInvoiceOutOfProcess, settled, uploadFiles } from '../../test/uploads.js';
import { startJobs } from '../../jobs/index.js';
import { getWorkbook } from '../../test/workbook.js';
import {
  dispatchQueuedRuns,
  optimizeTestHooks,
  queueOptimization,
  runQueuedOptimization,
} from './optimize.service.js';

let t: TestApp;
const tok: Record<string, string> = {};
let pohjola: number;
let subA: number;
let subB: number;
let testi: number;
const plan: Record<'big' | 'small' | 'mid', number> = { big: 0, small: 0, mid: 0 };
const sub: Record<string, number> = {};

const MONTHS = ['2025-01', '2025-02', '2025-03', '2025-04', '2025-05', '2025-06'];
const PHONE = {
  big: '+358401000001',
  idle: '+358401000002',
  right: '+358401000003',
  medium: '+358401000004',
};

const line = (phoneNumber: string, userName: string, lines: InvoiceLine[]): InvoiceSubscription => ({
  phoneNumber,
  userName,
  costCenter: null,
  total: lines.reduce((a, l) => a + l.amount, 0),
  lines,
});

/** Imports one invoice of the test operator for a sub-company, straight through the import. */
const importInvoice = async (month: string, subCompanyId: number, subs: InvoiceSubscription[]) => {
  await importParsed(t, { clientId: pohjola, subCompanyId, month, subscriptions: subs });
};

async function loginWith(email: string, operatorId: number): Promise<string> {
  const res = await t.inject({
    method: 'POST',
    url: '/api/Account/login',
    payload: { email, password: DEMO_PASSWORD, operatorId },
  });
  expect(res.statusCode).toBe(200);
  return res.json().access_token;
}

/** Queues a run and works it here (the tests need no worker). */
async function optimize() {
  await queueOptimization(t.deps.database.db, pohjola, 'manual');
  return runQueuedOptimization(t.deps, pohjola);
}

async function results() {
  const rows = await t.deps.database.db
    .select()
    .from(optimizationResults)
    .where(eq(optimizationResults.clientId, pohjola));
  return new Map(rows.map((r) => [r.subscriptionId, r]));
}

const list = (token: string, query: Record<string, string | number>) =>
  t.inject({ method: 'GET', url: '/api/optimization/subscriptions', query: stringify(query), token });
const stringify = (q: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(q).map(([k, v]) => [k, String(v)]));

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  // The client user: one sub-company (A), every optimization permission but reading savings too.
  ({
    clientId: pohjola,
    subA,
    subB,
  } = await limitDemoClientUser(t, ['general', 'savings', 'optimization.view', 'optimization.export']));

  [{ id: testi }] = await db.insert(operators).values({ name: 'Testi' }).returning();
  await db.insert(clientOperators).values({ clientId: pohjola, operatorId: testi });
  const base = { operatorId: testi, planType: 'flat_rate' as const, unlimited: true };
  [{ id: plan.big }] = await db
    .insert(plans)
    .values({ ...base, name: 'Testi 5G 1000M', listPrice: '33.90', dataSpeedMbps: 1000 })
    .returning();
  [{ id: plan.small }] = await db
    .insert(plans)
    .values({ ...base, name: 'Testi 4G 10M', listPrice: '15.90', dataSpeedMbps: 10 })
    .returning();
  [{ id: plan.mid }] = await db
    .insert(plans)
    .values({ ...base, name: 'Testi 4G 50M', listPrice: '20.90', dataSpeedMbps: 50 })
    .returning();

  for (const m of MONTHS) {
    await importInvoice(m, subA, [
      line(PHONE.big, 'Aino Iso', [feeLine('Testi 5G 1000M', 33.9), dataLine(800)]),
      line(PHONE.idle, 'Eero Hiljainen', [feeLine('Testi 4G 50M', 20.9)]),
      line(PHONE.right, 'Liisa Sopiva', [feeLine('Testi 4G 10M', 15.9), dataLine(2000)]),
    ]);
    await importInvoice(m, subB, [
      line(PHONE.medium, 'Olli Keski', [feeLine('Testi 4G 50M', 20.9), dataLine(12288)]),
    ]);
  }
  for (const s of await db
    .select({ id: subscriptions.id, phone: subscriptions.phoneNumber })
    .from(subscriptions)
    .where(eq(subscriptions.operatorId, testi))) {
    sub[Object.entries(PHONE).find(([, p]) => p === s.phone)![0]] = s.id;
  }
  // Pohjola's users and the admin choose the test operator at login (else the first is chosen).
  for (const k of ['admin', 'companyAdmin', 'clientUser'] as const) tok[k] = await loginWith(DEMO[k], testi);
  tok.otherCompanyAdmin = await t.login(DEMO.otherCompanyAdmin);
}, 120_000);

afterAll(async () => {
  optimizeTestHooks.beforeSwap = undefined;
  await t?.close();
});

describe('optimize-client', () => {
  it('finds the cheaper fitting plan, the unused line and the lines already on their best plan', async () => {
    const outcome = await optimize();
    expect(outcome).toEqual({ subscriptions: 4, findings: 4 });
    const r = await results();
    expect(r.get(sub.big)).toMatchObject({
      kind: 'optimized',
      currentPlanId: plan.big,
      bestPlanId: plan.small,
      currentMonthlyCents: 3390,
      bestMonthlyCents: 1590,
      monthlySavingCents: 1800,
      reasonCode: 'speed_oversized',
      monthsUsed: 6,
    });
    expect(r.get(sub.idle)).toMatchObject({ kind: 'unused', monthlySavingCents: 2090, bestPlanId: null });
    expect(r.get(sub.right)).toMatchObject({
      kind: 'unoptimized',
      monthlySavingCents: 0,
      bestPlanId: plan.small,
    });
    expect(r.get(sub.medium)).toMatchObject({ kind: 'unoptimized', bestPlanId: plan.mid });
    const [run] = await t.deps.database.db
      .select()
      .from(optimizationRuns)
      .where(eq(optimizationRuns.clientId, pohjola))
      .orderBy(asc(optimizationRuns.id))
      .limit(1);
    expect(run).toMatchObject({ status: 'succeeded', subscriptions: 4, findings: 4 });
  });

  it('a failed run leaves the previous results as they were and is marked failed', async () => {
    const before = await results();
    optimizeTestHooks.beforeSwap = () => {
      throw new Error('disk full');
    };
    // Even with a plan change that would alter the result.
    await t.deps.database.db.update(plans).set({ listPrice: '10.00' }).where(eq(plans.id, plan.small));
    try {
      expect(await optimize()).toBeNull();
    } finally {
      optimizeTestHooks.beforeSwap = undefined;
      await t.deps.database.db.update(plans).set({ listPrice: '15.90' }).where(eq(plans.id, plan.small));
    }
    const after = await results();
    expect([...after.values()].map((r) => [r.id, r.monthlySavingCents])).toEqual(
      [...before.values()].map((r) => [r.id, r.monthlySavingCents]),
    );
    const res = await list(tok.companyAdmin, {});
    expect(res.json().lastRun).toMatchObject({ status: 'failed', trigger: 'manual' });
    const [failed] = await t.deps.database.db
      .select()
      .from(optimizationRuns)
      .where(eq(optimizationRuns.id, res.json().lastRun.id));
    expect(failed.error).toBe('disk full');
  });
});

describe('GET /api/optimization/subscriptions', () => {
  it('lists a tab with money in euros, totals, counts and the reason in words', async () => {
    const res = await list(tok.companyAdmin, { tab: 'optimized' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.counts).toEqual({ optimized: 1, unoptimized: 2, unused: 1 });
    expect(body.total).toBe(1);
    expect(body.items[0]).toMatchObject({
      subscriptionId: sub.big,
      phoneNumber: PHONE.big,
      userName: 'Aino Iso',
      subCompanyId: subA,
      currentPlan: 'Testi 5G 1000M',
      bestPlan: 'Testi 4G 10M',
      currentMonthlyCost: '33.90',
      bestMonthlyCost: '15.90',
      monthlySaving: '18.00',
      yearlySaving: '216.00',
      mark: null,
    });
    expect(body.items[0].reason).toMatch(/0\.8 GB.*1000M.*10M/);
    expect(body.totals).toEqual({
      currentMonthlyCost: '33.90',
      bestMonthlyCost: '15.90',
      monthlySaving: '18.00',
      yearlySaving: '216.00',
    });
    const unused = (await list(tok.companyAdmin, { tab: 'unused' })).json();
    expect(unused.items[0]).toMatchObject({
      subscriptionId: sub.idle,
      monthlySaving: '20.90',
      bestPlan: null,
    });
  });

  it('filters by saving limit and search, sorts and pages', async () => {
    expect((await list(tok.companyAdmin, { tab: 'optimized', savingLimit: '18,00' })).json().total).toBe(1);
    const over = (await list(tok.companyAdmin, { tab: 'optimized', savingLimit: '18.01' })).json();
    expect(over.total).toBe(0);
    expect(over.totals.monthlySaving).toBe('0.00');
    // Counts stay those of the tabs, whatever the saving limit and search.
    expect(over.counts.optimized).toBe(1);
    expect((await list(tok.companyAdmin, { tab: 'unoptimized', search: 'olli' })).json().items).toHaveLength(
      1,
    );
    expect(
      (await list(tok.companyAdmin, { tab: 'unoptimized', search: '4g 50' })).json().items[0].subscriptionId,
    ).toBe(sub.medium);
    const page1 = (
      await list(tok.companyAdmin, { tab: 'unoptimized', sort: 'phoneNumber', order: 'desc', pageSize: 1 })
    ).json();
    expect(page1.total).toBe(2);
    expect(page1.items.map((i: { phoneNumber: string }) => i.phoneNumber)).toEqual([PHONE.medium]);
    const page2 = (
      await list(tok.companyAdmin, {
        tab: 'unoptimized',
        sort: 'phoneNumber',
        order: 'desc',
        pageSize: 1,
        page: 2,
      })
    ).json();
    expect(page2.items.map((i: { phoneNumber: string }) => i.phoneNumber)).toEqual([PHONE.right]);
    expect(page2.totals.currentMonthlyCost).toBe('36.80');
  });

  it('refuses bad input with 400 in the caller’s language', async () => {
    for (const query of [
      { tab: 'best' } as Record<string, string>,
      { savingLimit: '-1' },
      { savingLimit: 'abc' },
      { sort: 'reason' },
    ]) {
      expect((await list(tok.companyAdmin, query)).statusCode).toBe(400);
    }
    // Provider users name the client.
    expect((await list(tok.admin, {})).statusCode).toBe(400);
    expect((await list(tok.admin, { clientId: pohjola })).json().total).toBe(1);
  });

  it('a client user sees only their sub-companies; another client’s ids answer 404', async () => {
    const mine = (await list(tok.clientUser, { tab: 'unoptimized' })).json();
    expect(mine.items.map((i: { subscriptionId: number }) => i.subscriptionId)).toEqual([sub.right]);
    expect(mine.counts).toEqual({ optimized: 1, unoptimized: 1, unused: 1 });
    expect((await list(tok.clientUser, { subCompanyId: subB })).statusCode).toBe(404);
    expect((await list(tok.otherCompanyAdmin, { clientId: pohjola })).statusCode).toBe(404);
    expect((await list(tok.otherCompanyAdmin, { subCompanyId: subA })).statusCode).toBe(404);
  });

  it('the operator chosen at login filters the rows', async () => {
    const { db } = t.deps.database;
    const [elisa] = await db.select().from(operators).where(eq(operators.name, 'Elisa'));
    const elisaToken = await loginWith(DEMO.companyAdmin, elisa.id);
    expect((await list(elisaToken, { tab: 'optimized' })).json().counts).toEqual({
      optimized: 0,
      unoptimized: 0,
      unused: 0,
    });
    expect((await list(tok.companyAdmin, { tab: 'optimized' })).json().counts.optimized).toBe(1);
  });
});

describe('export', () => {
  it('streams every matching row as .xlsx with headers in the caller’s language', async () => {
    const { wb } = await getWorkbook(
      t,
      '/api/optimization/subscriptions/export?tab=unoptimized&sort=phoneNumber',
      tok.companyAdmin,
    );
    const ws = wb.worksheets[0];
    expect(ws.getRow(1).getCell(2).value).toBe('Phone number');
    expect(ws.rowCount).toBe(3);
    expect(ws.getRow(2).getCell(2).value).toBe(PHONE.right);
    expect(ws.getRow(2).getCell(7).value).toBe(15.9);
    expect(ws.getRow(3).getCell(5).value).toBe('Testi 4G 50M');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });
});

describe('View users', () => {
  it('may view and export but get 403 on mark, re-optimize and settings', async () => {
    const ids = [sub.big];
    const cases = [
      { method: 'POST' as const, url: '/api/optimization/mark', payload: { subscriptionIds: ids } },
      { method: 'POST' as const, url: '/api/optimization/reoptimize', payload: {} },
      {
        method: 'PUT' as const,
        url: '/api/optimization/settings',
        payload: { optimizationMonths: 6, unusedMonthCount: 3 },
      },
    ];
    for (const c of cases) expect((await t.inject({ ...c, token: tok.clientUser })).statusCode).toBe(403);
    expect((await list(tok.clientUser, {})).statusCode).toBe(200);
    expect(
      (
        await t.inject({
          method: 'GET',
          url: '/api/optimization/subscriptions/export',
          token: tok.clientUser,
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('settings', () => {
  it('reads and changes the settings and queues a run', async () => {
    const get = await t.inject({ method: 'GET', url: '/api/optimization/settings', token: tok.companyAdmin });
    expect(get.statusCode, get.body).toBe(200);
    expect(get.json()).toEqual({ optimizationMonths: 6, unusedMonthCount: 3 });
    const bad = await t.inject({
      method: 'PUT',
      url: '/api/optimization/settings',
      payload: { optimizationMonths: 0, unusedMonthCount: 3 },
      token: tok.companyAdmin,
    });
    expect(bad.statusCode).toBe(400);
    const put = await t.inject({
      method: 'PUT',
      url: '/api/optimization/settings',
      payload: { optimizationMonths: 6, unusedMonthCount: 2 },
      token: tok.companyAdmin,
    });
    expect(put.json()).toEqual({ optimizationMonths: 6, unusedMonthCount: 2 });
    expect((await list(tok.companyAdmin, {})).json().lastRun).toMatchObject({
      status: 'queued',
      trigger: 'settings',
    });
    await runQueuedOptimization(t.deps, pohjola);
    await t.inject({
      method: 'PUT',
      url: '/api/optimization/settings',
      payload: { clientId: pohjola, optimizationMonths: 6, unusedMonthCount: 3 },
      token: tok.admin,
    });
    await runQueuedOptimization(t.deps, pohjola);
    expect((await list(tok.companyAdmin, {})).json().lastRun).toMatchObject({ status: 'succeeded' });
  });
});

describe('mark, contract price, realisation and savings', () => {
  const mark = (token: string, payload: object) =>
    t.inject({ method: 'POST', url: '/api/optimization/mark', payload, token });

  it('marks only recommendations of the caller’s client', async () => {
    expect((await mark(tok.companyAdmin, { subscriptionIds: [] })).statusCode).toBe(400);
    const notOpt = await mark(tok.companyAdmin, { subscriptionIds: [sub.right] });
    expect(notOpt.statusCode).toBe(400);
    expect(notOpt.json().code).toBe('markNotOptimizable');
    expect((await mark(tok.otherCompanyAdmin, { subscriptionIds: [sub.big] })).statusCode).toBe(404);
    expect(
      (await mark(tok.otherCompanyAdmin, { clientId: pohjola, subscriptionIds: [sub.big] })).statusCode,
    ).toBe(404);
    expect((await mark(tok.companyAdmin, { subscriptionIds: [999_999] })).statusCode).toBe(404);
    const ok = await mark(tok.companyAdmin, { subscriptionIds: [sub.big, sub.idle] });
    expect(ok.json()).toEqual({ marked: 2, alreadyMarked: 0 });
    expect((await mark(tok.companyAdmin, { subscriptionIds: [sub.big] })).json()).toEqual({
      marked: 0,
      alreadyMarked: 1,
    });
    const item = (await list(tok.companyAdmin, { tab: 'optimized' })).json().items[0];
    expect(item.mark).toMatchObject({ status: 'open', realisedMonth: null });
  });

  it('unmarks a marked recommendation: open again, counted apart when not marked, only within the Scope', async () => {
    const unmark = (token: string, payload: object) =>
      t.inject({ method: 'POST', url: '/api/optimization/unmark', payload, token });
    const markOf = async (id: number) =>
      (await list(tok.companyAdmin, { tab: 'unused' }))
        .json()
        .items.find((i: { subscriptionId: number }) => i.subscriptionId === id)?.mark;
    expect(await markOf(sub.idle)).toMatchObject({ status: 'open' });
    expect((await unmark(tok.otherCompanyAdmin, { subscriptionIds: [sub.idle] })).statusCode).toBe(404);
    expect((await unmark(tok.clientUser, { subscriptionIds: [sub.idle] })).statusCode).toBe(403);
    expect((await unmark(tok.companyAdmin, { subscriptionIds: [] })).statusCode).toBe(400);
    expect(await markOf(sub.idle)).toMatchObject({ status: 'open' });
    const res = await unmark(tok.companyAdmin, { subscriptionIds: [sub.idle] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ unmarked: 1, notMarked: 0 });
    expect(await markOf(sub.idle)).toBeNull();
    expect((await unmark(tok.companyAdmin, { subscriptionIds: [sub.idle] })).json()).toEqual({
      unmarked: 0,
      notMarked: 1,
    });
    // It can be marked again.
    expect((await mark(tok.companyAdmin, { subscriptionIds: [sub.idle] })).json()).toEqual({
      marked: 1,
      alreadyMarked: 0,
    });
  });

  it('a contract price change followed by re-optimize changes the result', async () => {
    await t.deps.database.db.update(plans).set({ contractPrice: '9.90' }).where(eq(plans.id, plan.small));
    const res = await t.inject({
      method: 'POST',
      url: '/api/optimization/reoptimize',
      payload: {},
      token: tok.companyAdmin,
    });
    expect(res.statusCode).toBe(202);
    expect(res.json().runId).toEqual(expect.any(Number));
    await runQueuedOptimization(t.deps, pohjola);
    const item = (await list(tok.companyAdmin, { tab: 'optimized' })).json().items[0];
    expect(item).toMatchObject({ subscriptionId: sub.big, bestMonthlyCost: '9.90', monthlySaving: '24.00' });
  });

  it('a plan master change queues runs for the clients using its operator, sent by the sweep', async () => {
    const res = await t.inject({
      method: 'PUT',
      url: `/api/masters/plans/${plan.mid}`,
      payload: await planPayload(plan.mid, { contractPrice: '19.90' }),
      token: tok.admin,
    });
    expect(res.statusCode).toBe(200);
    const queued = await t.deps.database.db
      .select()
      .from(optimizationRuns)
      .where(and(eq(optimizationRuns.clientId, pohjola), eq(optimizationRuns.status, 'queued')));
    expect(queued.map((q) => q.trigger)).toEqual(['plans']);
    // Sent by the sweep unless a job of the client is waiting already (Re-optimize's, above):
    // either way one job waits for the client, however often the sweep runs.
    await dispatchQueuedRuns(t.deps);
    await dispatchQueuedRuns(t.deps);
    const jobs = await t.deps.database.db.execute(
      `select count(*)::int n from pgboss.job where name = 'optimize-client' and singleton_key = 'optimize:${pohjola}' and state < 'completed'`,
    );
    expect(
      ((jobs as unknown as { rows?: Array<{ n: number }> }).rows ??
        (jobs as unknown as Array<{ n: number }>))[0].n,
    ).toBe(1);
    await runQueuedOptimization(t.deps, pohjola);
  });

  it('an import showing the new plan realises the mark, counted in the savings dashboard', async () => {
    await importInvoice('2025-07', subA, [
      line(PHONE.big, 'Aino Iso', [feeLine('Testi 4G 10M', 9.9), dataLine(800)]),
      line(PHONE.right, 'Liisa Sopiva', [feeLine('Testi 4G 10M', 9.9), dataLine(2000)]),
    ]);
    await importInvoice('2025-07', subB, [
      line(PHONE.medium, 'Olli Keski', [feeLine('Testi 4G 50M', 19.9), dataLine(12288)]),
    ]);
    await optimize();
    // The mark taken back earlier is kept for the record (cancelled) and counts nowhere.
    const marks = await t.deps.database.db
      .select()
      .from(optimizationMarks)
      .where(and(eq(optimizationMarks.clientId, pohjola), eq(optimizationMarks.cancelled, false)))
      .orderBy(asc(optimizationMarks.subscriptionId));
    expect(marks.map((m) => [m.subscriptionId, m.kind, m.status, m.realisedMonth])).toEqual([
      [sub.big, 'optimized', 'realised', '2025-07-01'],
      [sub.idle, 'unused', 'realised', '2025-07-01'],
    ]);
    // The terminated line is no longer a finding; the changed one is on its best plan.
    const r = await results();
    expect(r.has(sub.idle)).toBe(false);
    expect(r.get(sub.big)?.kind).toBe('unoptimized');

    const res = await t.inject({
      method: 'GET',
      url: '/api/dashboard/savings?from=2025-06&to=2025-08',
      token: tok.companyAdmin,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.realised.byMonth).toEqual([
      { month: '2025-06', saving: '0.00' },
      { month: '2025-07', saving: '38.90' },
      { month: '2025-08', saving: '38.90' },
    ]);
    expect(body.realised).toMatchObject({ total: '77.80', count: 2 });
    expect(body.potential).toMatchObject({ monthly: '0.00', optimizedCount: 0, unusedCount: 0 });
    expect(body.bySubCompany).toEqual([
      expect.objectContaining({ subCompanyId: subA, realised: '77.80', potentialMonthly: '0.00' }),
    ]);
    expect(body.lastRun.status).toBe('succeeded');
    // The client user without the sub-company of the realised marks sees them too (sub-company A).
    const mine = await t.inject({
      method: 'GET',
      url: '/api/dashboard/savings?from=2025-06&to=2025-08',
      token: tok.clientUser,
    });
    expect(mine.json().realised.total).toBe('77.80');
    expect(
      (
        await t.inject({
          method: 'GET',
          url: `/api/dashboard/savings?subCompanyId=${subB}`,
          token: tok.clientUser,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('potential savings count open findings and their marked part', async () => {
    // A new oversized line on the next invoice: one open recommendation.
    await importInvoice('2025-08', subA, [
      line(PHONE.big, 'Aino Iso', [feeLine('Testi 4G 10M', 9.9), dataLine(800)]),
      line('+358401000009', 'Uusi Iso', [feeLine('Testi 5G 1000M', 33.9), dataLine(500)]),
    ]);
    await optimize();
    const body = (
      await t.inject({
        method: 'GET',
        url: '/api/dashboard/savings?from=2025-08&to=2025-08',
        token: tok.companyAdmin,
      })
    ).json();
    expect(body.potential).toMatchObject({
      monthly: '24.00',
      yearly: '288.00',
      optimizedMonthly: '24.00',
      optimizedCount: 1,
      markedCount: 0,
    });
  });
});

describe('triggers', () => {
  it('a successful import queues a run that the worker finishes', async () => {
    await startJobs(t.deps, { schedules: false });
    const { db } = t.deps.database;
    const before = await db.select({ id: optimizationRuns.id }).from(optimizationRuns);
    const pdf = generateInvoiceOutOfProcess({
      operator: 'elisa',
      subscriptions: 3,
      seed: 42,
      buyer: BUYER.pohjola,
    });
    // Signed in for all operators: the test operator's session would not see the Elisa invoice once
    // it is parsed (the operator chosen at sign-in scopes the invoices too).
    const allOperators = await t.login(DEMO.companyAdmin);
    const res = await uploadFiles(t, allOperators, [{ name: 'elisa.pdf', data: pdf }], {
      subCompanyId: subA,
    });
    expect(res.statusCode, res.body).toBe(200);
    const done = await settled(t, allOperators, res.json().results[0].invoiceId);
    expect(done.uploadState, done.errorDetail).toBe('uploaded');
    const known = new Set(before.map((b) => b.id));
    for (let i = 0; ; i++) {
      const runs = (
        await db.select().from(optimizationRuns).where(eq(optimizationRuns.clientId, pohjola))
      ).filter((r) => !known.has(r.id) && r.trigger === 'import');
      if (runs.length && runs.every((r) => r.status === 'succeeded')) break;
      if (i > 120) throw new Error(`import run not finished: ${JSON.stringify(runs)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 120_000);
});

/** The plan as the masters API reads it, with changes (the PUT takes the whole entity). */
async function planPayload(id: number, changes: Record<string, unknown>) {
  const res = await t.inject({ method: 'GET', url: `/api/masters/plans/${id}`, token: tok.admin });
  const {
    id: _id,
    operatorName,
    planGroupName,
    basePlanGroupName,
    clientName,
    createdAt,
    updatedAt,
    ...rest
  } = res.json();
  void [_id, operatorName, planGroupName, basePlanGroupName, clientName, createdAt, updatedAt];
  return { ...rest, ...changes };
}
