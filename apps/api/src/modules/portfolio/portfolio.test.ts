import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { addMonths, helsinkiMonth, type PortfolioList, type PortfolioRow } from '@kulu/shared';
import {
  alerts,
  clientContracts,
  clientOperators,
  clients,
  costElements,
  monthlyFacts,
  operators,
  optimizationMarks,
  optimizationResults,
  optimizationRuns,
  subscriptions,
} from '../../db/schema/index.js';
import { addActiveContract, clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { insertInvoice } from '../../test/import-parsed.js';
import { addConsultant } from '../../test/client-wing.js';
import { getWorkbook } from '../../test/workbook.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

/**
 * The portfolio on a small known data set: Pohjola (Elisa and Telia) and Saimaa (DNA) from the demo,
 * a third company that no consultant is assigned (Kolmas), and an interested client that is no
 * customer. This month and last month are the real ones, so that the demo's operator contracts are
 * in force.
 */
let t: TestApp;
let pohjola: number;
let saimaa: number;
let kolmas: number;
let lead: number;
const tok: Record<string, string> = {};
const MONTH = helsinkiMonth(new Date());
const LAST = addMonths(MONTH, -1);
const op: Record<string, number> = {};
let n = 0;

async function invoiceWithFacts(clientId: number, operator: string, month: string, amounts: string[]) {
  const { db } = t.deps.database;
  const k = ++n;
  const invoiceId = await insertInvoice(t, {
    clientId,
    operatorId: op[operator],
    fileName: `p${k}.pdf`,
    fileSha256: `portfolio-${k}`,
    batchId: `p${k}`,
    invoiceNumber: `P-${k}`,
    periodStart: `${month}-01`,
    uploadState: 'uploaded',
    parsingStatus: 'completed',
  });
  const [element] = await db
    .insert(costElements)
    .values({ name: `Portfolio fee ${k}`, operatorId: op[operator]!, status: 'approved' })
    .returning();
  const subs = [];
  for (const [i, amount] of amounts.entries()) {
    const [sub] = await db
      .insert(subscriptions)
      .values({
        clientId,
        operatorId: op[operator]!,
        phoneNumber: `+35840${String(k).padStart(3, '0')}${String(i).padStart(4, '0')}`,
        userName: `User ${k}-${i}`,
        firstSeenMonth: `${month}-01`,
        lastSeenMonth: `${month}-01`,
      })
      .returning();
    subs.push(sub!.id);
    await db.insert(monthlyFacts).values({
      clientId,
      invoiceId,
      operatorId: op[operator]!,
      subscriptionId: sub!.id,
      month: `${month}-01`,
      costElementId: element!.id,
      amount,
    });
  }
  return subs;
}

/** A succeeded optimization run of the client with findings of (kind, monthly saving in cents). */
async function findings(
  clientId: number,
  subs: number[],
  kinds: Array<['optimized' | 'unused' | 'unoptimized', number]>,
) {
  const { db } = t.deps.database;
  const [run] = await db
    .insert(optimizationRuns)
    .values({ clientId, status: 'succeeded', trigger: 'import', finishedAt: new Date() })
    .returning();
  const [{ operatorId }] = await db
    .select({ operatorId: subscriptions.operatorId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subs[0]!));
  await db.insert(optimizationResults).values(
    kinds.map(([kind, cents], i) => ({
      clientId,
      runId: run!.id,
      subscriptionId: subs[i]!,
      operatorId: operatorId!,
      kind,
      currentMonthlyCents: 2000,
      bestMonthlyCents: 2000 - cents,
      monthlySavingCents: cents,
      reasonCode: 'test',
      reasonParams: {},
      monthsUsed: 6,
    })),
  );
  return run!.id;
}

async function company(name: string, businessId: string, interestStatus: 'company' | 'not_converted') {
  const [c] = await t.deps.database.db
    .insert(clients)
    .values({
      type: 'company',
      companyName: name,
      businessId,
      email: `${businessId}@example.fi`,
      interestStatus,
    })
    .returning({ id: clients.id });
  return c!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  for (const o of await db.select().from(operators)) op[o.name] = o.id;
  pohjola = await clientIdOf(t, DEMO.companyAdmin);
  saimaa = await clientIdOf(t, DEMO.otherCompanyAdmin);
  kolmas = await company('Kolmas Oy', '1234567-1', 'company');
  lead = await company('Liidi Oy', '7654321-0', 'not_converted');
  await db.insert(clientContracts).values({
    clientId: kolmas,
    status: 'active',
    startDate: '2020-01-01',
    endDate: '2031-06-30',
  });
  // A provider consultant assigned Pohjola alone.
  await addConsultant(t, { email: 'pirkko@kulu.fi', fullName: 'Pirkko Provider', languageId: 2 }, [pohjola]);

  // Pohjola: last month Elisa 60.00 + 40.00; this month Elisa 100.00 + 50.00; Telia has no invoice this month.
  await invoiceWithFacts(pohjola, 'Elisa', LAST, ['60.00', '40.00']);
  const subs = await invoiceWithFacts(pohjola, 'Elisa', MONTH, ['100.00', '20.00', '20.00', '10.00']);
  await findings(pohjola, subs, [
    ['optimized', 1000],
    ['unused', 500],
    ['unoptimized', 0],
  ]);
  // A mark realised two months ago counts this month; one realised next month and a cancelled one do not.
  const mark = (subscriptionId: number, cents: number, realisedMonth: string, cancelled = false) => ({
    clientId: pohjola,
    subscriptionId,
    kind: 'unused' as const,
    monthlySavingCents: cents,
    status: 'realised' as const,
    realisedMonth: `${realisedMonth}-01`,
    cancelled,
  });
  await db
    .insert(optimizationMarks)
    .values([
      mark(subs[3]!, 300, addMonths(MONTH, -2)),
      mark(subs[2]!, 700, addMonths(MONTH, 1)),
      mark(subs[2]!, 900, LAST, true),
    ]);
  await db
    .update(clientOperators)
    .set({ contractEndDate: '2099-01-31' })
    .where(and(eq(clientOperators.clientId, pohjola), eq(clientOperators.operatorId, op.Elisa!)));
  await db
    .update(clientOperators)
    .set({ contractEndDate: '2098-05-31' })
    .where(and(eq(clientOperators.clientId, pohjola), eq(clientOperators.operatorId, op.Telia!)));

  // Saimaa: last month DNA 200.00, nothing this month (DNA's invoice missing).
  await invoiceWithFacts(saimaa, 'DNA', LAST, ['200.00']);
  // Kolmas: this month only, no operator contract (nothing missing).
  await invoiceWithFacts(kolmas, 'Telia', MONTH, ['40.00']);
  // Open alerts: Pohjola two high (one acknowledged more) and a low; Kolmas a medium.
  const alert = (
    clientId: number,
    severity: 'high' | 'medium' | 'low',
    key: string,
    state: 'open' | 'acknowledged' = 'open',
  ) => ({ clientId, rule: 'cost_jump' as const, severity, state, dedupeKey: key, month: `${MONTH}-01` });
  await db
    .insert(alerts)
    .values([
      alert(pohjola, 'high', 'a'),
      alert(pohjola, 'high', 'b'),
      alert(pohjola, 'high', 'c', 'acknowledged'),
      alert(pohjola, 'low', 'd'),
      alert(kolmas, 'medium', 'e'),
    ]);
  // The lead: figures that must never show.
  await addActiveContract(t, lead);
  await invoiceWithFacts(lead, 'DNA', MONTH, ['999.00']);

  tok.admin = await t.login(DEMO.admin);
  tok.consultant = await t.login(DEMO.consultant);
  tok.pirkko = await t.login('pirkko@kulu.fi');
  tok.companyAdmin = await t.login(DEMO.companyAdmin);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function list(token: string, query = ''): Promise<PortfolioList> {
  const res = await t.inject({ method: 'GET', url: `/api/portfolio${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PortfolioList;
}
const rowOf = (l: PortfolioList, clientId: number) => l.items.find((i) => i.clientId === clientId);

describe('GET /api/portfolio', () => {
  it('shows the provider admin every customer company, not leads or consultant firms', async () => {
    const l = await list(tok.admin!);
    expect(l.month).toBe(MONTH);
    expect(l.lastMonth).toBe(LAST);
    expect(l.items.map((i) => i.companyName)).toEqual([
      'Kolmas Oy',
      'Pohjola Rakennus Oy',
      'Saimaan Logistiikka Oy',
    ]);
    expect(rowOf(l, lead)).toBeUndefined();
    expect(l.total).toBe(3);
  });

  it('computes each figure of a client on a known data set', async () => {
    const l = await list(tok.admin!);
    const p = rowOf(l, pohjola)!;
    const [contract] = await t.deps.database.db
      .select({ endDate: clientContracts.endDate })
      .from(clientContracts)
      .where(eq(clientContracts.clientId, pohjola));
    expect(p).toMatchObject<Partial<PortfolioRow>>({
      costThisMonth: '150.00',
      costLastMonth: '100.00',
      costChange: 50,
      potentialSaving: '15.00',
      realisedSaving: '3.00',
      missingInvoices: 1,
      missingOperators: ['Telia'],
      contractEndDate: contract!.endDate,
      operatorContractEndDate: '2098-05-31',
    });
    expect(p.lastRun).toMatchObject({ status: 'succeeded', trigger: 'import' });
    expect(rowOf(l, saimaa)).toMatchObject({
      costThisMonth: '0.00',
      costLastMonth: '200.00',
      costChange: -100,
      potentialSaving: '0.00',
      realisedSaving: '0.00',
      missingInvoices: 1,
      missingOperators: ['DNA'],
      lastRun: null,
    });
    expect(rowOf(l, kolmas)).toMatchObject({
      costThisMonth: '40.00',
      costLastMonth: '0.00',
      costChange: null,
      missingInvoices: 0,
      missingOperators: [],
      contractEndDate: '2031-06-30',
      operatorContractEndDate: null,
    });
    expect(l.totals).toEqual({
      costThisMonth: '190.00',
      costLastMonth: '300.00',
      potentialSaving: '15.00',
      realisedSaving: '3.00',
      missingInvoices: 2,
      openAlerts: { high: 2, medium: 1, low: 1 },
    });
  });

  it('counts open alerts by severity, not acknowledged ones, as the Alerts bell does', async () => {
    const l = await list(tok.admin!);
    expect(rowOf(l, pohjola)!.openAlerts).toEqual({ high: 2, medium: 0, low: 1 });
    expect(rowOf(l, saimaa)!.openAlerts).toEqual({ high: 0, medium: 0, low: 0 });
    expect(rowOf(l, kolmas)!.openAlerts).toEqual({ high: 0, medium: 1, low: 0 });
    const bell = (
      await t.inject({ method: 'GET', url: `/api/alerts/count?clientId=${pohjola}`, token: tok.admin })
    ).json();
    expect(bell).toMatchObject({ open: 3, high: 2 });
    // High first, then medium.
    expect((await list(tok.admin!, '?sort=openAlerts&order=desc')).items.map((i) => i.clientId)).toEqual([
      pohjola,
      kolmas,
      saimaa,
    ]);
    // The consultant assigned Pohjola alone counts Pohjola's alerts only.
    expect((await list(tok.pirkko!)).totals.openAlerts).toEqual({ high: 2, medium: 0, low: 1 });
  });

  it('agrees with the client’s own dashboard and savings figures', async () => {
    const p = rowOf(await list(tok.admin!), pohjola)!;
    const cost = (
      await t.inject({
        method: 'GET',
        url: `/api/dashboard/cost-usage?clientId=${pohjola}&from=${MONTH}&to=${MONTH}`,
        token: tok.admin,
      })
    ).json();
    expect(cost.totalCost).toBe(p.costThisMonth);
    const savings = (
      await t.inject({
        method: 'GET',
        url: `/api/dashboard/savings?clientId=${pohjola}&to=${MONTH}`,
        token: tok.admin,
      })
    ).json();
    expect(savings.potential.monthly).toBe(p.potentialSaving);
    expect(savings.realised.byMonth.at(-1)).toEqual({ month: MONTH, saving: p.realisedSaving });
  });

  it('takes another month as this month', async () => {
    const l = await list(tok.admin!, `?month=${LAST}`);
    expect(l.lastMonth).toBe(addMonths(LAST, -1));
    expect(rowOf(l, pohjola)).toMatchObject({
      costThisMonth: '100.00',
      costLastMonth: '0.00',
      costChange: null,
    });
    // Elisa's invoice of that month is in; Telia's is not.
    expect(rowOf(l, pohjola)!.missingOperators).toEqual(['Telia']);
    expect(rowOf(l, saimaa)!.missingInvoices).toBe(0);
  });

  it('shows a consultant only the assigned companies', async () => {
    const demo = await list(tok.consultant!);
    expect(demo.items.map((i) => i.clientId).sort()).toEqual([pohjola, saimaa].sort());
    expect(demo.totals.costThisMonth).toBe('150.00');
    const pirkko = await list(tok.pirkko!);
    expect(pirkko.items.map((i) => i.clientId)).toEqual([pohjola]);
    expect(pirkko.total).toBe(1);
    expect(pirkko.totals).toMatchObject({
      costThisMonth: '150.00',
      costLastMonth: '100.00',
      missingInvoices: 1,
    });
    // Searching for an unassigned company finds nothing.
    expect((await list(tok.pirkko!, '?q=Kolmas')).items).toEqual([]);
    expect((await list(tok.pirkko!, '?q=Saimaa')).items).toEqual([]);
  });

  it('refuses client users: the portfolio is the provider’s', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/portfolio', token: tok.companyAdmin });
    expect(res.statusCode).toBe(403);
    const anon = await t.inject({ method: 'GET', url: '/api/portfolio' });
    expect(anon.statusCode).toBe(401);
  });

  it('searches by name or business id and keeps only clients with missing invoices', async () => {
    expect((await list(tok.admin!, '?q=pohjola')).items.map((i) => i.clientId)).toEqual([pohjola]);
    expect((await list(tok.admin!, '?q=1234567')).items.map((i) => i.clientId)).toEqual([kolmas]);
    const missing = await list(tok.admin!, '?missingInvoices=true');
    expect(missing.items.map((i) => i.clientId)).toEqual([pohjola, saimaa]);
    expect(missing.totals.missingInvoices).toBe(2);
  });

  it('sorts by a figure either way, empty values last, and pages', async () => {
    const ids = async (q: string) => (await list(tok.admin!, q)).items.map((i) => i.clientId);
    expect(await ids('?sort=costThisMonth&order=desc')).toEqual([pohjola, kolmas, saimaa]);
    expect(await ids('?sort=costThisMonth')).toEqual([saimaa, kolmas, pohjola]);
    expect(await ids('?sort=costChange')).toEqual([saimaa, pohjola, kolmas]);
    expect(await ids('?sort=costChange&order=desc')).toEqual([pohjola, saimaa, kolmas]);
    // Saimaa's demo contracts end before Pohjola's Telia (2098-05-31); Kolmas has none.
    expect(await ids('?sort=operatorContractEndDate')).toEqual([saimaa, pohjola, kolmas]);
    expect(await ids('?sort=operatorContractEndDate&order=desc')).toEqual([pohjola, saimaa, kolmas]);
    const page2 = await list(tok.admin!, '?sort=companyName&pageSize=2&page=2');
    expect(page2.items.map((i) => i.clientId)).toEqual([saimaa]);
    expect(page2.total).toBe(3);
  });

  it('answers 400, never 5xx, for bad input', async () => {
    await expectEachBadRequest(t, tok.admin!, '/api/portfolio', [
      '?sort=nope',
      '?month=2029-13',
      '?missingInvoices=maybe',
      '?pageSize=0',
      `?q=${'x'.repeat(101)}`,
    ]);
  });

  it('is in the OpenAPI document with its permission', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/portfolio']?.get).toBeTruthy();
    expect(doc.paths['/api/portfolio/export']?.get).toBeTruthy();
  });
});

describe('month costs kept under the data version', () => {
  it('shows a new invoice’s cost on the next request, and then the totals as before', async () => {
    const before = rowOf(await list(tok.admin!), kolmas)!;
    expect(before.costThisMonth).toBe('40.00');
    // A second view answers the same from what is kept.
    expect(rowOf(await list(tok.admin!), kolmas)!.costThisMonth).toBe('40.00');
    const subs = await invoiceWithFacts(kolmas, 'Elisa', MONTH, ['2.50']);
    expect(rowOf(await list(tok.admin!), kolmas)!.costThisMonth).toBe('42.50');
    // The consultant's view (another caller, other clients) is not mixed up with the admin's.
    expect((await list(tok.pirkko!)).items.map((i) => i.costThisMonth)).toEqual(['150.00']);
    // Deleting the invoice's facts takes the cost back.
    await t.deps.database.db.delete(monthlyFacts).where(inArray(monthlyFacts.subscriptionId, subs));
    expect(rowOf(await list(tok.admin!), kolmas)!.costThisMonth).toBe('40.00');
  });
});

describe('GET /api/portfolio/export', () => {
  it('writes the rows of the filters in the list’s order', async () => {
    const { res, wb } = await getWorkbook(
      t,
      '/api/portfolio/export?sort=costThisMonth&order=desc',
      tok.consultant!,
    );
    expect(res.headers['content-disposition']).toContain(`portfolio-${MONTH}.xlsx`);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Portfolio');
    expect(ws.getRow(1).getCell(3).value).toBe(`Cost ${MONTH} (€)`);
    const rows = [2, 3].map((r) => ws.getRow(r).values as unknown[]);
    expect(rows.map((r) => r[1])).toEqual(['Pohjola Rakennus Oy', 'Saimaan Logistiikka Oy']);
    expect(rows[0]!.slice(3, 10)).toEqual([150, 100, 50, 15, 3, 1, 'Telia']);
    expect(rows[0]!.slice(13, 16)).toEqual([2, 0, 1]);
    expect(ws.rowCount).toBe(3);
  });

  it('leaves out what the consultant may not see, in the reader’s language', async () => {
    const { wb } = await getWorkbook(t, '/api/portfolio/export', tok.pirkko!);
    expect(wb.worksheets[0]!.name).toBe('Asiakassalkku');
    expect(wb.worksheets[0]!.getRow(1).getCell(1).value).toBe('Yritys');
    expect(wb.worksheets[0]!.getRow(1).getCell(4).value).toBe(`Kustannukset ${LAST} (€)`);
    expect(wb.worksheets[0]!.rowCount).toBe(2);
    expect(wb.worksheets[0]!.getRow(2).getCell(1).value).toBe('Pohjola Rakennus Oy');
  });
});
