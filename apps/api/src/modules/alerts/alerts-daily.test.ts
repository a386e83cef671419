import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { type AlertList, type PortfolioList } from '@kulu/shared';
import { alerts, clientContracts, clientOperators, invoices } from '../../db/schema/index.js';
import { clientIdOf, createTestApp, DEMO, operatorIdOf, type TestApp } from '../../test/helpers.js';
import { addConsultant } from '../../test/client-wing.js';
import { evaluateDailyAlerts, reevaluateRecentInvoices } from './daily.service.js';
import { writeTestInvoice } from './test-invoices.js';
import { alertText } from './alert-text.js';

let t: TestApp;
let pohjola: number;
let elisa: number;
let telia: number;

const ofRule = (rule: 'invoice_missing' | 'contract_ending') =>
  t.deps.database.db
    .select()
    .from(alerts)
    .where(and(eq(alerts.clientId, pohjola), eq(alerts.rule, rule)));

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  pohjola = await clientIdOf(t, DEMO.companyAdmin);
  elisa = await operatorIdOf(t, 'Elisa');
  telia = await operatorIdOf(t, 'Telia');
  // Both operators under contract through 2027; Telia's ends on 2027-03-31.
  await db.delete(clientOperators).where(eq(clientOperators.clientId, pohjola));
  await db.insert(clientOperators).values([
    { clientId: pohjola, operatorId: elisa, contractStartDate: '2024-01-01', contractEndDate: '2027-12-31' },
    { clientId: pohjola, operatorId: telia, contractStartDate: '2024-01-01', contractEndDate: '2027-03-31' },
  ]);
});

afterAll(async () => {
  await t?.close();
});

describe('invoice missing', () => {
  it('is raised from day 20 for an operator under contract without the month’s invoice, once', async () => {
    const { db } = t.deps.database;
    await writeTestInvoice(db, {
      clientId: pohjola,
      operatorId: elisa,
      month: '2026-11-01',
      subs: [{ phone: '+358401110000' }],
    });
    await evaluateDailyAlerts(db, '2026-11-19');
    expect(await ofRule('invoice_missing')).toHaveLength(0);
    // (Every active client is evaluated: the seed's other client has its own contract.)
    expect(await evaluateDailyAlerts(db, '2026-11-20')).toBeGreaterThanOrEqual(1);
    const found = await ofRule('invoice_missing');
    expect(found).toHaveLength(1);
    const [missing] = found;
    expect(missing).toMatchObject({ operatorId: telia, month: '2026-11-01', severity: 'medium' });
    expect(alertText(missing.rule, missing.figures, missing.month, 'en')).toBe(
      'Telia: no invoice in November 2026 by day 20',
    );
    expect(await evaluateDailyAlerts(db, '2026-11-21')).toBe(0);
  });
});

describe('contract ending', () => {
  it('is raised 90 days ahead of an operator contract’s end date, not 91, and once', async () => {
    const { db } = t.deps.database;
    // 2027-03-31 minus 91 days is 2026-12-30.
    await evaluateDailyAlerts(db, '2026-12-30');
    expect(await ofRule('contract_ending')).toHaveLength(0);
    await evaluateDailyAlerts(db, '2026-12-31');
    const found = await ofRule('contract_ending');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ operatorId: telia, figures: expect.objectContaining({ daysLeft: 90 }) });
    expect(alertText(found[0].rule, found[0].figures, found[0].month, 'fi')).toBe(
      'Telia: sopimus päättyy 31.3.2027',
    );
    await evaluateDailyAlerts(db, '2027-01-15');
    expect(await ofRule('contract_ending')).toHaveLength(1);
  });
});

describe('the daily run', () => {
  it('evaluates the last days’ imports again: a lost evaluate-alerts job is made good, nothing twice', async () => {
    const { db } = t.deps.database;
    const id = await writeTestInvoice(db, {
      clientId: pohjola,
      operatorId: elisa,
      month: '2026-09-01',
      subs: [
        {
          phone: '+358401110001',
          lines: [{ label: 'Maksulliset palvelut', category: 'service_number', amount: 12 }],
        },
      ],
    });
    const now = new Date('2026-09-10T05:00:00Z');
    await db.update(invoices).set({ parsedAt: now }).where(eq(invoices.id, id));
    expect(await reevaluateRecentInvoices(db, new Date('2026-09-11T00:00:00Z'))).toBe(0);
    expect(await reevaluateRecentInvoices(db, new Date('2026-09-09T00:00:00Z'))).toBe(1);
    expect(await reevaluateRecentInvoices(db, new Date('2026-09-09T00:00:00Z'))).toBe(0);
    const [a] = await db.select().from(alerts).where(eq(alerts.invoiceId, id));
    expect(a.rule).toBe('service_numbers');
  });
});

describe('contract ending: the provider’s client contract', () => {
  /** A day `n` days before `iso`. */
  const before = (iso: string, n: number) =>
    new Date(Date.parse(iso) - n * 86_400_000).toISOString().slice(0, 10);
  const clientContractAlerts = () =>
    t.deps.database.db
      .select()
      .from(alerts)
      .where(
        and(
          eq(alerts.clientId, pohjola),
          eq(alerts.dedupeKey, `contract_ending:client:${contract.id}:${contract.endDate}`),
        ),
      );
  let contract: { id: number; endDate: string };

  beforeAll(async () => {
    const { db } = t.deps.database;
    // The demo's active contract of Pohjola (it ends at the end of the year after next).
    [contract] = await db
      .select({ id: clientContracts.id, endDate: clientContracts.endDate })
      .from(clientContracts)
      .where(and(eq(clientContracts.clientId, pohjola), eq(clientContracts.status, 'active')))
      .orderBy(desc(clientContracts.endDate));
    // A provider consultant assigned Saimaa only.
    await addConsultant(t, { email: 'saimaa-only@kulu.fi', fullName: 'Saimaa Only' }, [
      await clientIdOf(t, DEMO.otherCompanyAdmin),
    ]);
  });

  it('is raised 90 days ahead of the active client contract’s end, not 91, and once', async () => {
    const { db } = t.deps.database;
    await evaluateDailyAlerts(db, before(contract.endDate, 91));
    expect(await clientContractAlerts()).toHaveLength(0);
    await evaluateDailyAlerts(db, before(contract.endDate, 90));
    const found = await clientContractAlerts();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      audience: 'provider',
      contractId: contract.id,
      operatorId: null,
      severity: 'medium',
      figures: {
        name: 'Pohjola Rakennus Oy',
        endDate: contract.endDate,
        daysLeft: 90,
        contractKind: 'client',
      },
    });
    const [y, m, d] = contract.endDate.split('-').map(Number);
    expect(alertText('contract_ending', found[0].figures, found[0].month, 'fi')).toBe(
      `Pohjola Rakennus Oy: asiakassopimus päättyy ${d}.${m}.${y}`,
    );
    expect(alertText('contract_ending', found[0].figures, found[0].month, 'en')).toMatch(
      /^Pohjola Rakennus Oy: the client contract ends on \d+ \w+ \d{4}$/,
    );
    // Running again, a day later or the same day, adds nothing.
    expect(await clientContractAlerts()).toHaveLength(1);
    await evaluateDailyAlerts(db, before(contract.endDate, 89));
    await evaluateDailyAlerts(db, before(contract.endDate, 90));
    expect(await clientContractAlerts()).toHaveLength(1);
  });

  it('is seen by the provider admin and the assigned consultant, not by the company or an unassigned consultant', async () => {
    const [alert] = await clientContractAlerts();
    const sees = async (email: string) => {
      const token = await t.login(email);
      const list = await t.inject({
        method: 'GET',
        url: `/api/alerts?rule=contract_ending&pageSize=100`,
        token,
      });
      expect(list.statusCode).toBe(200);
      const count = (await t.inject({ method: 'GET', url: '/api/alerts/count', token })).json() as {
        open: number;
      };
      const ids = (list.json() as AlertList).items.map((a) => a.id);
      return { listed: ids.includes(alert.id), count: count.open };
    };
    expect((await sees(DEMO.admin)).listed).toBe(true);
    expect((await sees(DEMO.consultant)).listed).toBe(true);
    expect((await sees('saimaa-only@kulu.fi')).listed).toBe(false);
    const companyAdmin = await sees(DEMO.companyAdmin);
    expect(companyAdmin.listed).toBe(false);
    // The bell counts the company's own open alerts only, and acknowledging it as the company changes nothing.
    const own = await t.deps.database.db
      .select({ id: alerts.id })
      .from(alerts)
      .where(and(eq(alerts.clientId, pohjola), eq(alerts.state, 'open'), eq(alerts.audience, 'all')));
    expect(companyAdmin.count).toBe(own.length);
    const ack = await t.inject({
      method: 'POST',
      url: '/api/alerts/acknowledge',
      token: await t.login(DEMO.companyAdmin),
      payload: { ids: [alert.id] },
    });
    expect(ack.json()).toEqual({ acknowledged: 0 });
  });

  it('names the end date the portfolio shows as the contract end', async () => {
    const [alert] = await clientContractAlerts();
    const token = await t.login(DEMO.admin);
    const res = await t.inject({ method: 'GET', url: '/api/portfolio?pageSize=100', token });
    const row = (res.json() as PortfolioList).items.find((r) => r.clientId === pohjola);
    expect(row?.contractEndDate).toBe(alert.figures.endDate);
  });
});
