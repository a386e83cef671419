import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { ROLE } from '@kulu/shared';
import { generateInvoice } from '@kulu/invoices';
import { clientBillingPlans, clients, consultantCompanies, invoices, users } from '../../db/schema/index.js';
import { hashPassword } from '../../lib/passwords.js';
import {
  addActiveContract,
  BUYER,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  type TestApp,
} from '../../test/helpers.js';
import { settled, uploadFiles } from '../../test/uploads.js';
import { getWorkbook } from '../../test/workbook.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

let t: TestApp;
const tok: Record<string, string> = {};
let pohjola: number;
let saimaa: number;
let advisors: number;
let other: number;
const MONTH = '2021-03';
/** The consultant's billing plan: fees in euros. */
const FEES = {
  costPerPlan: '2.50',
  companyAdditionalUsersFee: '4.00',
  automatedInvoiceUploadFee: '1.25',
  setUpFeePerCompany: '99.00',
};

/** A consultant (a client of type consultant) with a user of its own. */
async function consultant(name: string, businessId: string, email: string, billingPlanId: number | null) {
  const { db } = t.deps.database;
  const [c] = await db
    .insert(clients)
    .values({
      type: 'consultant',
      companyName: name,
      businessId,
      email,
      interestStatus: 'consultant',
      billingPlanId,
    })
    .returning({ id: clients.id });
  // A consultant firm is a client: without a valid contract its users are locked out.
  await addActiveContract(t, c!.id);
  await db.insert(users).values({
    email,
    fullName: `${name} user`,
    roleId: ROLE.consultant,
    clientId: c!.id,
    passwordHash: await hashPassword(DEMO_PASSWORD),
    activated: true,
  });
  return c!.id;
}

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  const { db } = t.deps.database;
  const clientOf = async (email: string) =>
    (await db.select({ id: users.clientId }).from(users).where(eq(users.email, email)))[0]!.id!;
  pohjola = await clientOf(DEMO.companyAdmin);
  saimaa = await clientOf(DEMO.otherCompanyAdmin);
  const [plan] = await db
    .insert(clientBillingPlans)
    .values({
      name: 'Consultant plan',
      contractLengthMonths: 12,
      advancePaymentDiscountPercent: '0',
      costPerPlan: FEES.costPerPlan,
      setUpFee: '0',
      setUpFeePerCompany: FEES.setUpFeePerCompany,
      additionalUsersFee: '3.00',
      automatedInvoiceUploadFee: FEES.automatedInvoiceUploadFee,
      onDemandSupportFee: '80.00',
      adminFee: '10.00',
      companyAdditionalUsersFee: FEES.companyAdditionalUsersFee,
    })
    .returning({ id: clientBillingPlans.id });
  advisors = await consultant('Mobile Advisors Oy', '1234567-1', 'advisor@advisors.test', plan!.id);
  other = await consultant('Other Consulting Oy', '7654321-0', 'other@consulting.test', null);
  // Pohjola assigned in the month (new), Saimaa before it; the other consultant manages Saimaa too.
  await db.insert(consultantCompanies).values([
    { consultantClientId: advisors, clientId: pohjola, assignedAt: new Date('2021-03-10T09:00:00Z') },
    { consultantClientId: advisors, clientId: saimaa, assignedAt: new Date('2020-11-01T09:00:00Z') },
    { consultantClientId: other, clientId: saimaa, assignedAt: new Date('2021-01-01T09:00:00Z') },
  ]);
  for (const k of ['admin', 'companyAdmin', 'consultant'] as const) tok[k] = await t.login(DEMO[k]);
  tok.advisor = await t.login('advisor@advisors.test');
  tok.other = await t.login('other@consulting.test');

  // A month of invoices for Pohjola (4 subscriptions) and Saimaa (2); Pohjola's came by automation.
  for (const [token, operator, subs, seed, buyer] of [
    [tok.companyAdmin!, 'elisa', 4, 4100, BUYER.pohjola],
    [await t.login(DEMO.otherCompanyAdmin), 'dna', 2, 4200, BUYER.saimaa],
  ] as const) {
    const { pdf } = await generateInvoice({
      operator,
      buyer,
      subscriptions: subs,
      seed,
      invoiceDate: `${MONTH}-15`,
      costCenters: false,
    });
    const res = await uploadFiles(t, token, [{ name: `${operator}-${MONTH}.pdf`, data: pdf }]);
    expect(res.statusCode, res.body).toBe(200);
    const done = await settled(t, token, res.json().results[0].invoiceId);
    expect(done, `${done.errorCode}: ${done.errorDetail}`).toMatchObject({ uploadState: 'uploaded' });
  }
  await db
    .update(invoices)
    .set({ source: 'automation' })
    .where(and(eq(invoices.clientId, pohjola), sql`${invoices.periodStart} = ${`${MONTH}-01`}::date`));
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const get = (query: string, token = tok.admin!) =>
  t.inject({ method: 'GET', url: `/api/reports/consultant-billing?${query}`, token });

/** Known figures from the database itself: billed subscriptions and active client users per company. */
async function figures(clientId: number) {
  const { rows } = (await t.deps.database.db.execute(sql`
    select (select count(distinct l.subscription_id)::int from invoice_lines l join invoices i on i.id = l.invoice_id
             where i.client_id = ${clientId} and i.period_start = ${`${MONTH}-01`}::date and l.subscription_id is not null) as plans,
           (select count(*)::int from users where client_id = ${clientId} and role_id = ${ROLE.clientUser} and status = 'active') as users`)) as unknown as {
    rows: Array<{ plans: number; users: number }>;
  };
  return rows[0]!;
}

const cents = (s: string) => Math.round(Number(s) * 100);

describe('consultant billing report', () => {
  it("bills a consultant's companies for the month from its billing plan: plans, additional users, automated uploads, set-up for a new company", async () => {
    const res = await get(`month=${MONTH}&consultantId=${advisors}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    const p = await figures(pohjola);
    const s = await figures(saimaa);
    expect(p.plans).toBe(4);
    expect(s.plans).toBe(2);
    const rowP = body.items.find((i: { companyId: number }) => i.companyId === pohjola);
    const rowS = body.items.find((i: { companyId: number }) => i.companyId === saimaa);
    expect(rowP).toMatchObject({
      consultantName: 'Mobile Advisors Oy',
      plans: 4,
      additionalUsers: p.users,
      automatedUploads: 1,
      isNew: true,
      billingPlanName: 'Consultant plan',
      plansCost: '10.00',
      automatedUploadsCost: '1.25',
      setUpCost: '99.00',
    });
    expect(cents(rowP.total)).toBe(1000 + p.users * 400 + 125 + 9900);
    expect(rowS).toMatchObject({
      plans: 2,
      automatedUploads: 0,
      isNew: false,
      setUpCost: '0.00',
      plansCost: '5.00',
    });
    expect(cents(rowS.total)).toBe(500 + s.users * 400);
    expect(body.totals).toMatchObject({ companies: 2, plans: 6, automatedUploads: 1, newCompanies: 1 });
    expect(cents(body.totals.total)).toBe(cents(rowP.total) + cents(rowS.total));
  });

  it('lists every consultant for the admin, sorts, searches and pages; a company joins only from its assignment month', async () => {
    const all = (await get(`month=${MONTH}&sort=total&order=desc`)).json();
    expect(all.total).toBe(3);
    expect(all.items[0].companyId).toBe(pohjola);
    // Without a billing plan the other consultant's row is shown with no fees.
    const o = all.items.find((i: { consultantId: number }) => i.consultantId === other);
    expect(o).toMatchObject({ billingPlanName: null, total: '0.00', plans: 2 });
    const page2 = (await get(`month=${MONTH}&sort=companyName&pageSize=2&page=2`)).json();
    expect(page2.items).toHaveLength(1);
    expect(page2.total).toBe(3);
    const search = (await get(`month=${MONTH}&q=pohjola`)).json();
    expect(search.items.map((i: { companyId: number }) => i.companyId)).toEqual([pohjola]);
    // Pohjola was assigned in March 2021: not billed in February.
    const feb = (await get(`month=2021-02&consultantId=${advisors}`)).json();
    expect(feb.items.map((i: { companyId: number }) => i.companyId)).toEqual([saimaa]);
    const options = (
      await t.inject({ method: 'GET', url: '/api/reports/consultant-billing/options', token: tok.admin })
    ).json();
    // Every consultant-type client: these two and the demo's consultant firm (assigned its companies
    // today, so not in these months' rows).
    expect(options.consultants.map((c: { name: string }) => c.name)).toEqual([
      'Kaarna Mobiilineuvonta Oy',
      'Mobile Advisors Oy',
      'Other Consulting Oy',
    ]);
  });

  it("a consultant sees only its own billing; another consultant's id answers 404, a company 403", async () => {
    const own = await get(`month=${MONTH}`, tok.advisor);
    expect(own.statusCode).toBe(200);
    expect(own.json().items.every((i: { consultantId: number }) => i.consultantId === advisors)).toBe(true);
    expect(own.json().total).toBe(2);
    expect((await get(`month=${MONTH}&consultantId=${other}`, tok.advisor)).statusCode).toBe(404);
    const opts = (
      await t.inject({ method: 'GET', url: '/api/reports/consultant-billing/options', token: tok.advisor })
    ).json();
    expect(opts.consultants.map((c: { id: number }) => c.id)).toEqual([advisors]);
    // The provider's own consultant is not billed: nothing to see.
    expect((await get(`month=${MONTH}`, tok.consultant)).json().total).toBe(0);
    expect((await get(`month=${MONTH}`, tok.companyAdmin)).statusCode).toBe(403);
    expect((await get(`consultantId=${pohjola}`)).statusCode).toBe(404);
    await expectEachBadRequest(t, tok.admin!, '/api/reports/consultant-billing?', [
      'month=2021-13',
      'sort=nope',
      'consultantId=0',
      'page=0',
    ]);
  });

  it('exports exactly the rows of the filters with a totals row, euro formats and a frozen header', async () => {
    const list = (await get(`month=${MONTH}&consultantId=${advisors}`)).json();
    const { res, wb } = await getWorkbook(
      t,
      `/api/reports/consultant-billing/export?month=${MONTH}&consultantId=${advisors}`,
      tok.admin,
    );
    expect(res.headers['content-disposition']).toContain(`consultant-billing-${MONTH}.xlsx`);
    const ws = wb.worksheets[0]!;
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getRow(1).getCell(3).value).toBe('Company');
    expect(ws.rowCount).toBe(1 + list.items.length + 1);
    list.items.forEach(
      (item: { companyName: string; plans: number; total: string; isNew: boolean }, n: number) => {
        const row = ws.getRow(n + 2);
        expect(row.getCell(3).value).toBe(item.companyName);
        expect(row.getCell(4).value).toBe(item.plans);
        expect(row.getCell(7).value).toBe(item.isNew ? 'Yes' : 'No');
        expect(row.getCell(13).value).toBe(Number(item.total));
        expect(row.getCell(13).numFmt).toBe('#,##0.00 "€"');
      },
    );
    const totals = ws.getRow(ws.rowCount);
    expect(totals.getCell(1).value).toBe('Total');
    expect(totals.getCell(13).value).toBe(Number(list.totals.total));
  });
});
