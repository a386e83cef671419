// Issue 38, reconciled to the cent, visibly: an invoice keeps every VAT rate as stated (never 0 %
// for mixed VAT), its rows in units Kulu does not convert with their unit, and the differences its
// own figures show; the invoice page, the list and the dashboard say so. Copies and cancellations
// are never added as a cost (item 5).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '@kulu/invoices';
import { clientOperators, invoiceLines, operators } from '../../db/schema/index.js';
import { BUYER, clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { feeLine, insertInvoice } from '../../test/import-parsed.js';
import { ImportRefusal, importParsedInvoice } from './import.service.js';
import { markFailed } from './invoices.service.js';

const OPERATOR = 'Täsmätesti';

let t: TestApp;
let operatorId = 0;
let pohjola = 0;
let token = '';
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  pohjola = await clientIdOf(t, DEMO.companyAdmin);
  [{ id: operatorId }] = await db.insert(operators).values({ name: OPERATOR }).returning();
  await db.insert(clientOperators).values({ clientId: pohjola, operatorId });
  token = await t.login(DEMO.companyAdmin);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

const sub = (phone: string, lines: InvoiceLine[]): InvoiceSubscription => ({
  phoneNumber: phone,
  userName: `Käyttäjä ${phone.slice(-3)}`,
  costCenter: null,
  total: lines.reduce((a, l) => a + l.amount, 0),
  lines,
});

/** A line of `quantity` in a unit Kulu does not convert, as the invoice states it. */
const otherUnitLine = (label: string, quantity: number, unitCode: string, amount: number): InvoiceLine => ({
  ...feeLine(label, amount),
  category: 'other',
  count: null,
  quantity,
  unit: 'other',
  unitCode,
});

/** An invoice row of Pohjola (as an upload leaves it) and `parsed` over it: the invoice's id. */
async function newInvoice(): Promise<number> {
  const i = ++n;
  return insertInvoice(t, {
    clientId: pohjola,
    fileName: `tasma-${i}.xml`,
    fileSha256: `reconciliation-${i}-${Date.now()}`,
    batchId: `reconciliation-${i}`,
    format: 'finvoice',
  });
}

/** A parsed invoice of the operator for Pohjola dated in `month`, totals from its lines unless given. */
function parsedOf(month: string, subscriptions: InvoiceSubscription[], extra: Partial<ParsedInvoice> = {}) {
  const i = n;
  const total = subscriptions.reduce((a, s) => a + s.total, 0);
  const parsed: ParsedInvoice = {
    operator: OPERATOR,
    invoiceNumber: `T-${i}`,
    invoiceDate: `${month}-15`,
    dueDate: `${month}-28`,
    customerNumber: '1',
    customerName: BUYER.pohjola.name,
    businessId: BUYER.pohjola.businessId,
    referenceNumber: '1',
    currency: 'EUR',
    vatRate: 25.5,
    totalExclVat: total,
    vatAmount: Math.round(total * 25.5) / 100,
    totalInclVat: total + Math.round(total * 25.5) / 100,
    subscriptions,
    otherLines: [],
    ...extra,
  };
  return parsed;
}

/** Imports `parsed` (built by `build` once the invoice row exists) as the parse job does: its id. */
async function imported(build: () => ParsedInvoice): Promise<number> {
  const id = await newInvoice();
  const done = await importParsedInvoice(t.deps.database.db, id, build(), new Date());
  expect(done.imported).toBe(true);
  return id;
}

/** The import's refusal of `parsed` recorded as the parse job records it: the failed invoice's id and refusal. */
async function refused(build: () => ParsedInvoice) {
  const id = await newInvoice();
  const e = await importParsedInvoice(t.deps.database.db, id, build(), new Date()).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ImportRefusal);
  const refusal = e as ImportRefusal;
  await markFailed(t.deps, id, refusal.code, refusal.message, refusal.buyer, refusal.known);
  return { id, code: refusal.code };
}

const get = (url: string) => t.inject({ method: 'GET', url, token });
const detail = async (id: number) => {
  const res = await get(`/api/invoices/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('an invoice reconciled to the cent, visibly', () => {
  it('keeps every VAT rate of a mixed-VAT invoice (never 0 %): vat_rate is the largest base’s, the detail lists each rate', async () => {
    const id = await imported(() =>
      parsedOf('2025-03', [sub('+358401110001', [feeLine('Liittymä', 100), feeLine('Palvelu', 20)])], {
        vatRate: 25.5,
        vatBreakdown: [
          { rate: 25.5, base: 100, vat: 25.5 },
          { rate: 14, base: 20, vat: 2.8 },
        ],
        vatAmount: 28.3,
        totalInclVat: 148.3,
      }),
    );
    const d = await detail(id);
    expect(d.vatRate).toBe('25.50');
    expect(d.difference).toBe('0.00');
    expect(d.reconciliation).toEqual({
      subscriptionsTotal: '120.00',
      otherLinesTotal: '0.00',
      computedExclVat: '120.00',
      statedExclVat: '120.00',
      vatRates: [
        { rate: '25.50', base: '100.00', statedVat: '25.50', computedVat: '25.50' },
        { rate: '14.00', base: '20.00', statedVat: '2.80', computedVat: '2.80' },
      ],
      statedVat: '28.30',
      computedInclVat: '148.30',
      statedInclVat: '148.30',
      differences: [],
      reconciled: true,
    });
  });

  it('stores the rows in units Kulu does not convert with their unit and lists them on the invoice', async () => {
    const id = await imported(() =>
      parsedOf('2025-04', [
        sub('+358401110002', [
          feeLine('Kuukausimaksu', 10),
          otherUnitLine('Palvelupäivät', 3, 'vrk', 6),
          otherUnitLine('Asennus', 2, '', 50),
        ]),
      ]),
    );
    const rows = await t.deps.database.db
      .select({ unit: invoiceLines.unit, unitCode: invoiceLines.unitCode, quantity: invoiceLines.quantity })
      .from(invoiceLines)
      .where(and(eq(invoiceLines.invoiceId, id), eq(invoiceLines.unit, 'other')));
    expect(rows).toEqual([
      { unit: 'other', unitCode: 'vrk', quantity: '3.00' },
      { unit: 'other', unitCode: '', quantity: '2.00' },
    ]);
    const d = await detail(id);
    expect(d.unconvertedLines).toEqual({
      total: 2,
      items: [
        {
          label: 'Palvelupäivät',
          phoneNumber: '+358401110002',
          userName: 'Käyttäjä 002',
          quantity: '3.00',
          unitCode: 'vrk',
          amount: '6.00',
        },
        {
          label: 'Asennus',
          phoneNumber: '+358401110002',
          userName: 'Käyttäjä 002',
          quantity: '2.00',
          unitCode: '',
          amount: '50.00',
        },
      ],
    });
    const lines = (await get(`/api/invoices/${id}/subscriptions`)).json().items[0].lines;
    expect(lines.map((l: { unitCode: string | null }) => l.unitCode)).toEqual([null, 'vrk', '']);
  });

  it('shows a difference in the detail, the list and the dashboard; an invoice without one shows reconciled', async () => {
    const month = '2025-06';
    const clean = await imported(() =>
      parsedOf(month, [sub('+358401110003', [feeLine('Kuukausimaksu', 40)])]),
    );
    // The rows add up to 125.00, the invoice states 130.00 excl. VAT; a cent's rounding is no difference.
    const off = await imported(() =>
      parsedOf(month, [sub('+358401110004', [feeLine('Kuukausimaksu', 125)])], {
        totalExclVat: 130,
        vatAmount: 33.15,
        totalInclVat: 163.15,
        vatBreakdown: [{ rate: 25.5, base: 130, vat: 33.15 }],
        differences: [
          { where: 'rows', stated: 130, computed: 125, difference: 5 },
          { where: 'total', stated: 163.15, computed: 163.14, difference: 0.01 },
        ],
      }),
    );
    const d = await detail(off);
    expect(d.difference).toBe('5.00');
    expect(d.reconciliation).toMatchObject({
      subscriptionsTotal: '125.00',
      computedExclVat: '125.00',
      statedExclVat: '130.00',
      reconciled: false,
      differences: [{ where: 'rows', rate: null, stated: '130.00', computed: '125.00', difference: '5.00' }],
    });
    expect((await detail(clean)).reconciliation).toMatchObject({ reconciled: true, differences: [] });

    const list = async (q: string) => {
      const res = await get(`/api/invoices?month=${month}&pageSize=50${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return new Map(res.json().items.map((i: { id: number; difference: string }) => [i.id, i.difference]));
    };
    const all = await list('');
    expect(all.get(off)).toBe('5.00');
    expect(all.get(clean)).toBe('0.00');
    expect([...(await list('&reconciled=false')).keys()]).toEqual([off]);
    expect([...(await list('&reconciled=true')).keys()]).toEqual([clean]);
    const sorted = (await get(`/api/invoices?month=${month}&sort=difference&order=desc`)).json();
    expect(sorted.items[0].id).toBe(off);

    const dashboard = async (from: string, to: string) => {
      const res = await get(`/api/dashboard/cost-usage?clientId=${pohjola}&from=${from}&to=${to}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().unreconciledInvoices;
    };
    expect(await dashboard('2025-05', '2025-07')).toEqual([
      { id: off, invoiceNumber: d.invoiceNumber, operatorName: OPERATOR, difference: '5.00' },
    ]);
    // A period whose invoices all reconcile says nothing.
    expect(await dashboard('2025-03', '2025-04')).toEqual([]);
  });
});

describe('copies and cancellations are never added as a cost (item 5)', () => {
  it('refuses a copy of an invoice Kulu has, naming it; imports once a copy of one it does not have', async () => {
    const original = await imported(() =>
      parsedOf('2025-08', [sub('+358401110005', [feeLine('Kuukausimaksu', 30)])]),
    );
    const number = (await detail(original)).invoiceNumber as string;
    const copy = await refused(() =>
      parsedOf('2025-08', [sub('+358401110005', [feeLine('Kuukausimaksu', 30)])], {
        invoiceNumber: number,
        origin: 'copy',
        originalInvoiceNumber: number,
      }),
    );
    expect(copy.code).toBe('invoiceCopyAlreadyImported');
    expect((await detail(copy.id)).errorMessage).toBe(
      `The invoice is a copy of invoice ${number}, which Kulu already has: a copy is never added as a new cost`,
    );

    // A copy of an invoice Kulu does not have is the only record of it: imported, once.
    const lone = `C-${Date.now()}`;
    const copyOf = () =>
      parsedOf('2025-08', [sub('+358401110006', [feeLine('Kuukausimaksu', 12)])], {
        invoiceNumber: lone,
        origin: 'copy',
        originalInvoiceNumber: lone,
      });
    await imported(copyOf);
    expect((await refused(copyOf)).code).toBe('invoiceCopyAlreadyImported');
  });

  it('refuses a cancellation, naming the invoice it cancels and whether Kulu has it; never deletes the original', async () => {
    const original = await imported(() =>
      parsedOf('2025-09', [sub('+358401110007', [feeLine('Kuukausimaksu', 20)])]),
    );
    const number = (await detail(original)).invoiceNumber as string;
    const cancel = (of: string) => () =>
      parsedOf('2025-09', [sub('+358401110007', [feeLine('Kuukausimaksu', -20)])], {
        invoiceNumber: `K-${of}`,
        origin: 'cancel',
        originalInvoiceNumber: of,
      });
    const known = await refused(cancel(number));
    expect(known.code).toBe('invoiceCancelsKnown');
    expect((await detail(known.id)).errorMessage).toContain(`cancels invoice ${number}, which Kulu has`);
    const unknown = await refused(cancel('999999'));
    expect(unknown.code).toBe('invoiceCancelsUnknown');
    expect((await detail(unknown.id)).errorMessage).toContain(
      'cancels invoice 999999, which Kulu does not have',
    );
    // The original stays, with its costs.
    expect(await detail(original)).toMatchObject({ uploadState: 'uploaded', totalExclVat: '20.00' });
  });
});
