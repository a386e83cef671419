import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataLine, feeLine, importParsed } from '../../test/import-parsed.js';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { InvoiceSubscription } from '@kulu/invoices';
import {
  clientOperators,
  costCenters,
  invoiceLines,
  monthlyFacts,
  operators,
  plans,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import { clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';

/**
 * The import writes subscriptions, lines and facts a statement per kind (db/bulk.ts, issue 24): a
 * month of many known subscriptions whose every field changed must update each row to its own
 * values, and an older month only their first month, as the row-by-row import did.
 */
let t: TestApp;
let pohjola: number;
let subA: number;
let subB: number;
let testi: number;
let perus: number;
let max: number;
let ccb: number;

const N = 400; // subscriptions of the first month; the next one knows 380 of them and adds 20
const KNOWN = 380;
const ADDED = 20;
const BACKDATED = 50;

const data = (mb: number, amount: number) => dataLine(mb, amount, 0.0125);
const phone = (i: number) => `+35850${String(i).padStart(7, '0')}`;
const sub = (
  i: number,
  userName: string,
  costCenter: string | null,
  feeLabel: string,
): InvoiceSubscription => {
  const lines = [feeLine(feeLabel, 10 + (i % 7)), data(100 + i, (i % 9) / 4)];
  return {
    phoneNumber: phone(i),
    userName,
    costCenter,
    total: lines.reduce((a, l) => a + l.amount, 0),
    lines,
  };
};

/** One invoice of the test operator for a sub-company of Pohjola, straight through the import. */
const importInvoice = (month: string, subCompanyId: number, subs: InvoiceSubscription[], now: Date) =>
  importParsed(t, {
    clientId: pohjola,
    subCompanyId,
    month,
    subscriptions: subs,
    otherLines: [feeLine('Laskutuslisä', 2.5)],
    now,
  });

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  pohjola = await clientIdOf(t, DEMO.companyAdmin);
  const own = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, pohjola))
    .orderBy(asc(subCompanies.id))
    .limit(1);
  subA = own[0].id;
  [{ id: subB }] = await db
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(and(eq(subCompanies.clientId, pohjola), ne(subCompanies.id, subA)))
    .orderBy(asc(subCompanies.id))
    .limit(1);
  [{ id: testi }] = await db.insert(operators).values({ name: 'Testi' }).returning();
  await db.insert(clientOperators).values({ clientId: pohjola, operatorId: testi });
  const base = { operatorId: testi, planType: 'flat_rate' as const, unlimited: true };
  [{ id: perus }] = await db
    .insert(plans)
    .values({ ...base, name: 'Testi Perus', listPrice: '15.90', dataSpeedMbps: 10 })
    .returning();
  [{ id: max }] = await db
    .insert(plans)
    .values({ ...base, name: 'Testi Max', listPrice: '33.90', dataSpeedMbps: 1000 })
    .returning();
  // A center of sub-company B named "code name": an invoice's code CCB finds it.
  [{ id: ccb }] = await db
    .insert(costCenters)
    .values({ clientId: pohjola, subCompanyId: subB, name: 'CCB Bravo' })
    .returning();
}, 600_000);
afterAll(async () => {
  await t?.close();
});

describe('import of many subscriptions', () => {
  it('updates every known subscription to its own new values, and an older month only their first month', async () => {
    const { db } = t.deps.database;
    const first = new Date('2025-04-02T08:00:00.123Z');
    const next = new Date('2025-05-03T09:30:00.456Z');
    const older = new Date('2025-05-04T10:00:00.789Z');
    const code1 = (i: number) => (i % 3 === 0 ? null : `CC${i % 5}`);
    const fee1 = (i: number) => (i % 2 ? 'Testi Perus' : 'Muu maksu');
    // Names a bound array must carry as they are (quotes, commas, braces, backslashes, NULL, non-ASCII).
    const name2 = (i: number) => `Käyttäjä "${i}", O'Brien {x} \\ NULL ${i}`;
    const code2 = (i: number) => (i % 4 === 0 ? null : i % 4 === 1 ? 'CCB' : `NEW${i % 6}`);
    const fee2 = (i: number) => (i % 3 === 0 ? 'Testi Max' : i % 3 === 1 ? 'Muu maksu' : 'Testi Perus');

    await importInvoice(
      '2025-03',
      subA,
      Array.from({ length: N }, (_, i) => sub(i, `User ${i}`, code1(i), fee1(i))),
      first,
    );
    const month2 = [
      ...Array.from({ length: KNOWN }, (_, i) => sub(i, name2(i), code2(i), fee2(i))),
      ...Array.from({ length: ADDED }, (_, k) => N + k).map((i) => sub(i, name2(i), code2(i), fee2(i))),
    ];
    const invoice2 = await importInvoice('2025-04', subA, month2, next);
    await importInvoice(
      '2025-02',
      subB,
      Array.from({ length: BACKDATED }, (_, i) => sub(i, 'Old name', 'OLD', 'Testi Max')),
      older,
    );

    const centers = new Map(
      (await db.select().from(costCenters).where(eq(costCenters.clientId, pohjola))).map((c) => [c.name, c]),
    );
    const centerOf = (code: string | null) =>
      code == null ? null : code === 'CCB' ? ccb : centers.get(code)!.id;
    const rows = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.clientId, pohjola), eq(subscriptions.operatorId, testi)));
    expect(rows).toHaveLength(N + ADDED);
    const byPhone = new Map(rows.map((r) => [r.phoneNumber, r]));
    for (let i = 0; i < N + ADDED; i++) {
      const row = byPhone.get(phone(i))!;
      const inNext = i < KNOWN || i >= N;
      const isNew = i >= N;
      const center = inNext
        ? code2(i) == null
          ? isNew
            ? null
            : centerOf(code1(i))
          : centerOf(code2(i))
        : centerOf(code1(i));
      const plan1 = fee1(i) === 'Testi Perus' ? perus : null;
      const plan2 = fee2(i) === 'Testi Max' ? max : fee2(i) === 'Testi Perus' ? perus : isNew ? null : plan1;
      expect(
        {
          userName: row.userName,
          firstSeenMonth: row.firstSeenMonth,
          lastSeenMonth: row.lastSeenMonth,
          costCenterId: row.costCenterId,
          subCompanyId: row.subCompanyId,
          currentPlanId: row.currentPlanId,
          updatedAt: row.updatedAt.toISOString(),
          createdAt: row.createdAt.toISOString(),
        },
        `subscription ${i}`,
      ).toEqual({
        userName: inNext ? name2(i) : `User ${i}`,
        firstSeenMonth: i < BACKDATED ? '2025-02-01' : isNew ? '2025-04-01' : '2025-03-01',
        lastSeenMonth: inNext ? '2025-04-01' : '2025-03-01',
        costCenterId: center,
        subCompanyId: inNext && code2(i) === 'CCB' ? subB : subA,
        currentPlanId: inNext ? plan2 : plan1,
        updatedAt: (inNext ? next : first).toISOString(),
        createdAt: (isNew ? next : first).toISOString(),
      });
    }

    // The next month's lines and facts name each subscription with its refreshed center and sub-company.
    const lines = await db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice2));
    expect(lines).toHaveLength(month2.length * 2 + 1);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const positions = lines.map((l) => l.position).sort((a, b) => a - b);
    expect(positions).toEqual(Array.from({ length: lines.length }, (_, k) => k));
    for (const l of lines) {
      if (l.subscriptionId == null) {
        expect(l).toMatchObject({ label: 'Laskutuslisä', amount: '2.50', position: month2.length * 2 });
        continue;
      }
      const s = byId.get(l.subscriptionId)!;
      const i = Number(s.phoneNumber.slice(-7));
      if (l.category === 'data') {
        expect(l, `line of ${i}`).toMatchObject({
          label: 'Testi data',
          region: 'domestic',
          quantity: `${100 + i}.00`,
          unit: 'mb',
          unitPrice: '0.0125',
          amount: ((i % 9) / 4).toFixed(2),
          count: null,
          periodStart: null,
        });
      } else {
        expect(l, `line of ${i}`).toMatchObject({
          label: fee2(i),
          amount: (10 + (i % 7)).toFixed(2),
          count: 1,
        });
      }
    }
    const facts = await db.select().from(monthlyFacts).where(eq(monthlyFacts.invoiceId, invoice2));
    expect(facts).toHaveLength(month2.length * 2 + 1);
    for (const f of facts) {
      if (f.subscriptionId == null) {
        expect(f).toMatchObject({ subCompanyId: subA, costCenterId: null, amount: '2.50' });
        continue;
      }
      const s = byId.get(f.subscriptionId)!;
      expect({ subCompanyId: f.subCompanyId, costCenterId: f.costCenterId, month: f.month }).toEqual({
        subCompanyId: s.subCompanyId,
        costCenterId: s.costCenterId,
        month: '2025-04-01',
      });
    }
  }, 300_000);
});
