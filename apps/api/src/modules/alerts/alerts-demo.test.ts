import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq, max } from 'drizzle-orm';
import type { PortfolioList } from '@kulu/shared';
import { alerts, users } from '../../db/schema/index.js';
import { demoMonths } from '../../demo/invoices.js';
import { clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { evaluateDailyAlerts } from './daily.service.js';

/**
 * The alerts' demo cases (docs/demo.md "Alerts"): after a first start the company admin's Alerts
 * page holds a roaming shock (with its cost jump), a service-number charge and new subscriptions,
 * and the Tampere client user sees the two Työmaat cases; Saimaan Logistiikka's Telia invoice of
 * the current month is missing.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { demo: true });
}, 600_000);

afterAll(async () => {
  await t?.close();
});

type Item = {
  rule: string;
  figures: Record<string, number | string>;
  text: string;
  subCompanyName: string | null;
};
const list = async (email: string, query = '') => {
  const token = await t.login(email);
  const res = await t.inject({ method: 'GET', url: `/api/alerts?pageSize=200${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items as Item[];
};

it('shows the demo cases to the company admin and the Työmaat ones to the Tampere client user', async () => {
  const admin = await list(DEMO.companyAdmin);
  const roaming = admin.find((a) => a.rule === 'roaming');
  expect(roaming?.figures).toMatchObject({ roamingCents: 18282, outsideCents: 18282 });
  expect(admin.some((a) => a.rule === 'cost_jump' && a.figures.phone === roaming?.figures.phone)).toBe(true);
  expect(admin.find((a) => a.rule === 'service_numbers')?.figures).toMatchObject({ serviceCents: 2775 });
  expect(admin.filter((a) => a.rule === 'new_subscription').length).toBeGreaterThan(0);

  const user = await list(DEMO.clientUser);
  expect(user.map((a) => a.rule)).toEqual(expect.arrayContaining(['roaming', 'service_numbers']));
  expect(user.every((a) => a.subCompanyName === 'Pohjola Rakennus Tampere')).toBe(true);
});

it('raises each of Saimaan Logistiikka’s unchanged monthly service-number charges once, not every month', async () => {
  const mine = await list(DEMO.otherCompanyAdmin, '&rule=service_numbers');
  const phones = mine.map((a) => a.figures.phone);
  // Four numbers with the same charge every month (43 alerts before issue 37: one a month each).
  expect(phones.length).toBe(4);
  expect(new Set(phones).size).toBe(phones.length);
});

it("has digested the company admin's alerts on first start (the immediate digest of decision 0026)", async () => {
  const [admin] = await t.deps.database.db
    .select({ mode: users.alertDigest, after: users.alertDigestAfter, clientId: users.clientId })
    .from(users)
    .where(eq(users.email, DEMO.companyAdmin));
  expect(admin.mode).toBe('immediate');
  const [{ last }] = await t.deps.database.db
    .select({ last: max(alerts.id) })
    .from(alerts)
    .where(eq(alerts.clientId, admin.clientId!));
  expect(admin.after).toBeGreaterThanOrEqual(last!);
});

it('misses Saimaan Logistiikka’s Telia invoice this month: in the portfolio at once, an alert from day 20', async () => {
  const token = await t.login(DEMO.admin);
  const res = await t.inject({ method: 'GET', url: '/api/portfolio?pageSize=100', token });
  const rows = (res.json() as PortfolioList).items;
  const saimaa = await clientIdOf(t, DEMO.otherCompanyAdmin);
  expect(rows.map((r) => [r.companyName, r.missingOperators])).toEqual(
    expect.arrayContaining([
      ['Pohjola Rakennus Oy', []],
      ['Saimaan Logistiikka Oy', ['Telia']],
    ]),
  );
  const month = demoMonths(new Date()).at(-1)!.invoiceDate.slice(0, 7);
  const { db } = t.deps.database;
  await evaluateDailyAlerts(db, `${month}-20`);
  const missing = await db.select().from(alerts).where(eq(alerts.rule, 'invoice_missing'));
  expect(missing.map((a) => [a.clientId, a.figures.operator, a.month])).toEqual([
    [saimaa, 'Telia', `${month}-01`],
  ]);
  const mine = await list(DEMO.otherCompanyAdmin, '&rule=invoice_missing');
  expect(mine.map((a) => a.text)).toEqual([
    expect.stringMatching(/^Telia: no invoice in \w+ \d{4} by day 20$/),
  ]);
  // The next day's run adds nothing.
  expect(await evaluateDailyAlerts(db, `${month}-21`)).toBe(0);
});
