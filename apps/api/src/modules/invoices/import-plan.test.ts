import { describe, expect, it } from 'vitest';
import type { InvoiceLine, ParsedInvoice } from '@kulu/invoices';
import {
  checkImport,
  ImportRefusal,
  OTHER_ELEMENT_NAME,
  planImport,
  type ImportCatalogue,
  type ImportParties,
} from './import-plan.js';

// The import planned without a database: a parsed invoice and a snapshot of the catalogue in,
// the rows to write out (issue 38, "one pipeline, in stages").

const line = (label: string, amount: number, more: Partial<InvoiceLine> = {}): InvoiceLine => ({
  label,
  category: 'other',
  region: null,
  periodStart: null,
  periodEnd: null,
  count: null,
  quantity: null,
  unit: null,
  unitPrice: null,
  amount,
  ...more,
});

const parsed = (over: Partial<ParsedInvoice> = {}): ParsedInvoice => ({
  operator: 'Elisa',
  invoiceNumber: '1001',
  invoiceDate: '2026-02-05',
  dueDate: '2026-02-19',
  customerNumber: 'C1',
  customerName: 'Pohjola Rakennus Oy',
  businessId: '2345678-0',
  referenceNumber: '123',
  currency: 'EUR',
  vatRate: 25.5,
  totalExclVat: 35.1,
  vatAmount: 8.95,
  totalInclVat: 44.05,
  subscriptions: [
    {
      phoneNumber: '+358401111111',
      userName: 'Anna',
      costCenter: '1001',
      total: 22.1,
      lines: [
        line('Elisa Yritys 5G', 20, { category: 'monthly_fee' }),
        line('Puhelut', 1.05, { category: 'voice', quantity: 10.5, unit: 'min' }),
        line('Puhelut', 1.05, { category: 'voice', quantity: 2, unit: 'pcs' }),
      ],
    },
    {
      phoneNumber: '+358402222222',
      userName: 'Bert',
      costCenter: '2002',
      total: 10,
      lines: [line('Elisa Yritys 5G', 10, { category: 'monthly_fee' })],
    },
    {
      phoneNumber: '+358409999999',
      userName: 'Skipped',
      costCenter: null,
      total: 3,
      lines: [line('Skip', 3)],
    },
  ],
  otherLines: [line('Paperilaskulisä', 3)],
  ...over,
});

const catalogue = (over: Partial<ImportCatalogue> = {}): ImportCatalogue => ({
  operatorId: 7,
  skipped: new Set(['+358409999999']),
  elements: new Map([['elisa yritys 5g', { id: 50, categoryId: 5 }]]),
  clientElements: 0,
  otherElement: null,
  categories: [{ id: 9, name: 'Voice domestic', operatorId: null, usageType: 'voice', zone: 'domestic' }],
  plans: [{ id: 70, name: 'Elisa Yritys 5G', clientId: null, groupCategoryId: null, groupAuto: null }],
  centers: [{ id: 30, name: '1001 Helsinki', subCompanyId: 4 }],
  subscriptions: new Map([
    [
      '+358402222222',
      {
        id: 300,
        firstSeenMonth: '2026-01-01',
        lastSeenMonth: '2026-01-01',
        subCompanyId: 2,
        costCenterId: null,
        currentPlanId: null,
      },
    ],
  ]),
  ...over,
});

const head = { id: 900, clientId: 3, subCompanyId: null, source: 'upload' as const };
const now = new Date('2026-02-10T10:00:00Z');
const options = { head, now, clientElementsMax: Infinity };

describe('the import plan', () => {
  it('plans new elements, centers and subscriptions with planned ids, and the lines and facts that use them', () => {
    const plan = planImport(parsed(), catalogue(), options);
    expect(plan.month).toBe('2026-02-01');
    // New labels: one element each, the category rule on the hint (voice, domestic).
    expect(plan.elements.create.map((e) => [e.name, e.clientId, e.costCategoryId, e.status])).toEqual([
      ['Puhelut', 3, 9, 'auto_categorized'],
      ['Paperilaskulisä', 3, null, 'uncategorized'],
    ]);
    // '1001' is the center "1001 Helsinki"; '2002' is created under the invoice's sub-company.
    expect(plan.centers).toEqual([
      { ref: expect.any(Number), clientId: 3, subCompanyId: null, name: '2002' },
    ]);
    const [made] = plan.subscriptions.create;
    expect(made).toMatchObject({
      phoneNumber: '+358401111111',
      costCenterId: 30,
      subCompanyId: 4,
      currentPlanId: 70,
    });
    expect(made.ref).toBeLessThan(0);
    expect(plan.subscriptions.refresh).toEqual([
      expect.objectContaining({
        id: 300,
        lastSeenMonth: '2026-02-01',
        costCenterId: plan.centers[0].ref,
        subCompanyId: 2,
      }),
    ]);
    expect(plan.lines.map((l) => [l.position, l.subscriptionId, l.label, l.amount])).toEqual([
      [0, made.ref, 'Elisa Yritys 5G', '20.00'],
      [1, made.ref, 'Puhelut', '1.05'],
      [2, made.ref, 'Puhelut', '1.05'],
      [3, 300, 'Elisa Yritys 5G', '10.00'],
      [4, null, 'Paperilaskulisä', '3.00'],
    ]);
    // Facts per subscription and element; minutes and pieces together are no one quantity.
    const calls = plan.facts.find((f) => f.subscriptionId === made.ref && f.costElementId !== 50)!;
    expect(calls).toMatchObject({ amount: '2.10', quantity: null, unit: null, costCategoryId: 9 });
    expect(plan.facts.find((f) => f.subscriptionId === null)).toMatchObject({
      subCompanyId: null,
      amount: '3.00',
    });
    expect(plan.counts).toEqual({ subscriptions: 2, lines: 5, lineSubscriptions: 2, skipped: 1 });
    expect(plan.header).toMatchObject({
      operatorId: 7,
      periodEnd: '2026-02-28',
      lineCount: 5,
      subscriptionCount: 2,
      parsedAt: now,
    });
  });

  it("sends the names past the client's limit to its Other charges, created once", () => {
    const plan = planImport(parsed(), catalogue({ clientElements: 4 }), { ...options, clientElementsMax: 5 });
    expect(plan.elements.create.map((e) => e.name)).toEqual(['Puhelut']);
    expect(plan.elements.createOther).toBeLessThan(0);
    expect(plan.elements.limited).toEqual({ limit: 5, names: 1, firstNames: ['Paperilaskulisä'] });
    expect(plan.lines.at(-1)!.costElementId).toBe(plan.elements.createOther);
    const known = planImport(
      parsed(),
      catalogue({ clientElements: 5, otherElement: { id: 61, categoryId: null } }),
      {
        ...options,
        clientElementsMax: 5,
      },
    );
    expect(known.elements).toMatchObject({ create: [], createOther: null, limited: { names: 2 } });
    expect(known.lines.filter((l) => l.costElementId === 61)).toHaveLength(3);
    expect(OTHER_ELEMENT_NAME).toContain('Other');
  });

  it('keeps the operator names of automated invoices shared, and only backdates a number seen later', () => {
    const plan = planImport(
      parsed(),
      catalogue({
        subscriptions: new Map([
          [
            '+358402222222',
            {
              id: 300,
              firstSeenMonth: '2026-03-01',
              lastSeenMonth: '2026-04-01',
              subCompanyId: 2,
              costCenterId: 31,
              currentPlanId: 71,
            },
          ],
        ]),
      }),
      { ...options, head: { ...head, source: 'automation' } },
    );
    expect(plan.elements.create.every((e) => e.clientId === null)).toBe(true);
    expect(plan.subscriptions.refresh).toEqual([]);
    expect(plan.subscriptions.backdate).toEqual([{ id: 300, firstSeenMonth: '2026-02-01' }]);
    expect(plan.facts.find((f) => f.subscriptionId === 300)).toMatchObject({
      costCenterId: 31,
      subCompanyId: 2,
    });
  });
});

describe('the import refusals', () => {
  const parties: ImportParties = {
    client: { businessId: '2345678-0', names: [] },
    format: 'finvoice',
    buyerConfirmed: false,
    operatorId: 7,
    hasContract: true,
    duplicate: false,
  };
  const refusal = (p: Partial<ImportParties>, invoice = parsed()) => {
    try {
      checkImport(invoice, { ...parties, ...p });
      return null;
    } catch (e) {
      return e instanceof ImportRefusal ? e.code : e;
    }
  };

  it('checks whom the invoice is for before who sent it, and whether it is new last', () => {
    expect(checkImport(parsed(), parties)).toBe(7);
    expect(refusal({ client: { businessId: '1111111-1', names: [] }, operatorId: null })).toBe(
      'invoiceOtherBuyer',
    );
    expect(refusal({ operatorId: null, hasContract: false })).toBe('invoiceUnknownOperator');
    expect(refusal({ hasContract: false, duplicate: true })).toBe('invoiceOperatorNoContract');
    expect(refusal({ duplicate: true })).toBe('invoiceAlreadyParsed');
    // An e-invoice without a buyer id is refused; a PDF naming the client by name is not.
    expect(refusal({}, parsed({ businessId: null }))).toBe('invoiceNoBuyer');
    expect(
      refusal(
        { format: 'pdf', client: { businessId: '2345678-0', names: ['POHJOLA RAKENNUS'] } },
        parsed({ businessId: null }),
      ),
    ).toBeNull();
  });
});
