import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { clientContracts, users } from '../../db/schema/index.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { getWorkbook } from '../../test/workbook.js';
import { expectEachBadRequest } from '../../test/bad-requests.js';

let t: TestApp;
let admin: string;
let consultant: string;
let companyAdmin: string;
let pohjola: number;
const url = '/api/reports/client-contracts';

type Row = {
  contractId: number;
  clientId: number;
  status: string;
  monthlyCost: string | null;
  numberOfPlans: number;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login(DEMO.admin);
  consultant = await t.login(DEMO.consultant);
  companyAdmin = await t.login(DEMO.companyAdmin);
  const [u] = await t.deps.database.db.select().from(users).where(eq(users.email, DEMO.companyAdmin));
  pohjola = u.clientId!;
  // Pohjola: an old contract that was terminated, and a draft (not in the report).
  await t.deps.database.db.insert(clientContracts).values([
    {
      clientId: pohjola,
      status: 'terminated',
      startDate: '2019-01-01',
      endDate: '2021-12-31',
      terminationDate: '2020-06-30',
      numberOfPlans: 40,
      monthlyCost: '95.00',
      yearlyCost: '1140.00',
    },
    { clientId: pohjola, status: 'draft', startDate: '2040-01-01', endDate: '2042-12-31' },
  ]);
});
afterAll(async () => {
  await t?.close();
});

describe('client contracts report', () => {
  it('lists every client’s contracts but drafts, with totals equal to the rows', async () => {
    const res = await t.inject({ method: 'GET', url: `${url}?pageSize=200`, token: admin });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const rows = body.items as Row[];
    expect(rows.some((r) => r.status === 'draft')).toBe(false);
    expect(new Set(rows.map((r) => r.clientId)).size).toBeGreaterThanOrEqual(2);
    expect(body.totals.contracts).toBe(rows.length);
    const cents = rows.reduce((a, r) => a + Math.round(Number(r.monthlyCost ?? 0) * 100), 0);
    expect(Math.round(Number(body.totals.monthlyCost) * 100)).toBe(cents);
    expect(body.totals.numberOfPlans).toBe(rows.reduce((a, r) => a + r.numberOfPlans, 0));
  });

  it('splits active and inactive, and filters by client and name', async () => {
    const active = (await t.inject({ method: 'GET', url: `${url}?state=active`, token: admin })).json();
    expect(active.items.every((r: Row) => r.status === 'active')).toBe(true);
    const inactive = (await t.inject({ method: 'GET', url: `${url}?state=inactive`, token: admin })).json();
    expect(inactive.items.map((r: Row) => r.status)).toEqual(['terminated']);
    expect(inactive.items[0]).toMatchObject({
      clientId: pohjola,
      endedOn: '2020-06-30',
      monthlyCost: '95.00',
    });
    const one = (await t.inject({ method: 'GET', url: `${url}?clientId=${pohjola}`, token: admin })).json();
    expect(one.items.every((r: Row) => r.clientId === pohjola)).toBe(true);
    expect(one.total).toBe(2);
    const byName = (await t.inject({ method: 'GET', url: `${url}?q=saimaan`, token: admin })).json();
    expect(byName.items.length).toBeGreaterThan(0);
    expect(byName.items.every((r: Row) => r.clientId !== pohjola)).toBe(true);
  });

  it('is the admin’s only (consultant and company 403) and refuses bad filters', async () => {
    for (const token of [consultant, companyAdmin])
      expect((await t.inject({ method: 'GET', url, token })).statusCode).toBe(403);
    await expectEachBadRequest(t, admin, `${url}?`, ['state=draft', 'sort=nope', 'clientId=-1']);
  });

  it('exports the filtered contracts with euro formats', async () => {
    const list = (await t.inject({ method: 'GET', url: `${url}?state=inactive`, token: admin })).json();
    const { wb } = await getWorkbook(t, `${url}/export?state=inactive`, admin);
    const ws = wb.worksheets[0]!;
    expect(ws.rowCount - 1).toBe(list.total);
    expect(ws.getRow(2).getCell(1).value).toBe('Pohjola Rakennus Oy');
    expect(ws.getRow(2).getCell(12).value).toBe(95);
    expect(ws.getRow(2).getCell(12).numFmt).toContain('€');
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });
});
