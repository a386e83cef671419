import { describe, expect, it } from 'vitest';
import { parseFinvoice } from '../finvoice/parse.js';
import { generateFinvoice } from '../generator/finvoice.js';
import { generatePeppol, type PeppolOptions } from '../generator/peppol.js';
import { expectSameInvoice, OPERATOR_IDS } from '../test-helpers.js';
import type { InvoiceLine } from '../types.js';
import { businessIdOf } from './identifiers.js';
import { parsePeppol } from './parse.js';

/** Generates, parses and compares; returns the parsed invoice. */
function roundTrip(options: PeppolOptions) {
  const g = generatePeppol(options);
  const parsed = parsePeppol(g.xml);
  expectSameInvoice(parsed, g.expected, JSON.stringify(g.layout));
  return { parsed, g };
}

describe('Peppol BIS 3 round trip: every generated file parses to the invoice it was written from', () => {
  it('reads an invoice and a credit note of each operator, in each operator’s own line style', () => {
    for (const operator of OPERATOR_IDS) {
      for (const creditNote of [false, true]) {
        const { parsed } = roundTrip({ operator, subscriptions: 6, seed: 17, creditNote });
        expect(parsed.operator).toBe(operator);
        expect(parsed.subscriptions.length).toBe(6);
      }
    }
  });

  it('gives a credit note the invoice’s figures negated, as a Finvoice INV02 has them', () => {
    const invoice = parsePeppol(generatePeppol({ operator: 'dna', subscriptions: 4, seed: 8 }).xml);
    const credit = parsePeppol(
      generatePeppol({ operator: 'dna', subscriptions: 4, seed: 8, creditNote: true }).xml,
    );
    expect(invoice.totalExclVat).toBeGreaterThan(0);
    expect(credit.totalExclVat).toBe(-invoice.totalExclVat);
    expect(credit.vatAmount).toBe(-invoice.vatAmount);
    expect(credit.totalInclVat).toBe(-invoice.totalInclVat);
    expect(credit.subscriptions.map((s) => s.total)).toEqual(invoice.subscriptions.map((s) => -s.total));
  });

  it('reads several VAT rates, units Kulu does not convert and invoice-level discounts and charges, in every operator’s invoice and credit note', () => {
    for (const operator of OPERATOR_IDS) {
      for (const creditNote of [false, true]) {
        const { parsed } = roundTrip({
          operator,
          subscriptions: 4,
          seed: 31,
          creditNote,
          mixedVat: true,
          oddUnits: true,
          invoiceCharges: true,
        });
        expect(parsed.vatBreakdown?.map((r) => r.rate)).toEqual([25.5, 14, 10, 0]);
        const lines = parsed.subscriptions.flatMap((s) => s.lines);
        expect(lines.filter((l) => l.unit === 'other').map((l) => l.unitCode)).toEqual(
          expect.arrayContaining(['MON', 'DAY', 'ZZ', 'KGM', 'HUR', '']),
        );
        expect(parsed.otherLines.some((l) => l.category === 'discount' && l.quantity === null)).toBe(true);
        expect(parsed.differences).toBeUndefined();
      }
    }
  });

  it('maps the rows as the Finvoice reader does: the same invoice from either format', () => {
    for (const operator of OPERATOR_IDS) {
      const options = {
        operator,
        subscriptions: 5,
        seed: 23,
        grouping: 'subscription' as const,
        mixedVat: true,
        invoiceCharges: true,
      };
      const finvoice = parseFinvoice(generateFinvoice(options).xml);
      const peppol = parsePeppol(generatePeppol(options).xml);
      // Finvoice prints the calls beside the minutes and no price for included usage; a credit line is
      // quantity -1 at a positive price in UBL (BIS: no negative prices), 1 at a negative one in Finvoice
      const strip = (l: InvoiceLine) => ({
        ...l,
        count: null,
        unitPrice: null,
        quantity: l.quantity === null ? null : Math.abs(l.quantity),
      });
      expect(peppol.subscriptions.map((s) => ({ ...s, lines: s.lines.map(strip) }))).toEqual(
        finvoice.subscriptions.map((s) => ({ ...s, lines: s.lines.map(strip) })),
      );
      expect(peppol.otherLines.map(strip)).toEqual(finvoice.otherLines.map(strip));
      expect(peppol.vatBreakdown).toEqual(finvoice.vatBreakdown);
      expect(peppol.totalInclVat).toBe(finvoice.totalInclVat);
    }
  });

  it('matches elements by local name whatever the prefixes, and reads the SBDH transport frame', () => {
    for (const namespaces of ['bis', 'ubl', 'jaxb'] as const) {
      for (const frame of [false, true]) {
        roundTrip({ operator: 'telia', subscriptions: 3, seed: 5, namespaces, frame, creditNote: frame });
      }
    }
  });

  it('names each subscription by the number in the line Note or at the start of Item/Name, rows not adjacent', () => {
    for (const rowStyle of ['note', 'itemName'] as const) {
      const { parsed } = roundTrip({
        operator: 'elisa',
        subscriptions: 5,
        seed: 9,
        rowStyle,
        grouping: 'section',
      });
      expect(parsed.subscriptions.length).toBe(5);
      expect(parsed.subscriptions.every((s) => s.userName.length > 0)).toBe(true);
    }
  });

  it('finds the seller by any one of its identifiers: the OVT endpoint, the business id, the VAT number', () => {
    for (const sellerIds of ['ovt', 'businessId', 'vat'] as const) {
      for (const operator of OPERATOR_IDS) {
        expect(roundTrip({ operator, subscriptions: 2, seed: 3, sellerIds }).parsed.operator).toBe(operator);
      }
    }
  });

  it('reads the buyer’s business id from its identifiers and an invoice without one', () => {
    const { parsed } = roundTrip({
      operator: 'elisa',
      subscriptions: 2,
      seed: 6,
      buyer: { businessId: '2345678-1' },
    });
    expect(parsed.businessId).toBe('2345678-1');
    expect(
      roundTrip({ operator: 'dna', subscriptions: 2, seed: 6, buyer: { businessId: null } }).parsed
        .businessId,
    ).toBeNull();
  });

  it('reads invoice-level allowances and charges as invoice-level lines, counted in the total', () => {
    for (const creditNote of [false, true]) {
      const { g, parsed } = roundTrip({
        operator: 'elisa',
        subscriptions: 2,
        seed: 12,
        invoiceCharges: true,
        creditNote,
      });
      const text = Buffer.from(g.xml).toString('utf8');
      expect(text.match(/<cac:AllowanceCharge>/g)?.length).toBeGreaterThanOrEqual(2);
      const sign = creditNote ? -1 : 1;
      const discounts = parsed.otherLines.filter((l) => l.category === 'discount' && l.quantity === null);
      expect(discounts.length).toBeGreaterThan(0);
      expect(discounts.every((l) => sign * l.amount < 0)).toBe(true);
    }
  });

  it('takes the total including VAT from the amount due where TaxInclusiveAmount is missing', () => {
    const g = generatePeppol({ operator: 'telia', subscriptions: 2, seed: 8 });
    const text = Buffer.from(g.xml).toString('utf8');
    const without = text
      .replace(/<cbc:TaxInclusiveAmount[^>]*>[^<]*<\/cbc:TaxInclusiveAmount>/, '')
      .replace(
        /<cbc:PayableAmount currencyID="EUR">([^<]*)</,
        (_, due: string) =>
          `<cbc:PrepaidAmount currencyID="EUR">10.00</cbc:PrepaidAmount><cbc:PayableRoundingAmount currencyID="EUR">0.02</cbc:PayableRoundingAmount><cbc:PayableAmount currencyID="EUR">${(Number(due) - 10 + 0.02).toFixed(2)}<`,
      );
    expect(without).not.toContain('TaxInclusiveAmount');
    const parsed = parsePeppol(new Uint8Array(Buffer.from(without, 'utf8')));
    expect(parsed.totalInclVat).toBe(g.expected.totalInclVat);
    expect(parsed.differences).toBeUndefined();
  });
});

describe('Finnish party identifiers', () => {
  it('reads 0037, 0212, 0213, 0216 and unschemed VAT numbers and business ids; not other schemes', () => {
    expect(businessIdOf({ scheme: '0037', value: '01165106' })).toBe('0116510-6');
    expect(businessIdOf({ scheme: '0037', value: '0116510-6' })).toBe('0116510-6');
    expect(businessIdOf({ scheme: '0212', value: '1475607-9' })).toBe('1475607-9');
    expect(businessIdOf({ scheme: '0213', value: 'FI05925096' })).toBe('0592509-6');
    expect(businessIdOf({ scheme: '0216', value: '003701165106' })).toBe('0116510-6');
    expect(businessIdOf({ scheme: '0216', value: '003714756079100' })).toBe('1475607-9');
    expect(businessIdOf({ scheme: '', value: 'FI01165106' })).toBe('0116510-6');
    expect(businessIdOf({ scheme: '', value: '0116510-6' })).toBe('0116510-6');
    expect(businessIdOf({ scheme: '', value: '12345678' })).toBeNull(); // a customer number
    expect(businessIdOf({ scheme: '0088', value: '6411000000001' })).toBeNull();
    expect(businessIdOf({ scheme: '0216', value: '001234567890' })).toBeNull();
  });
});
