import { describe, expect, it } from 'vitest';
import {
  generateFinvoice,
  type FinvoiceCharset,
  type FinvoiceGeneratorVersion,
  type FinvoiceRowStyle,
} from '../generator/finvoice.js';
import { expectSameInvoice, OPERATOR_IDS } from '../test-helpers.js';
import { parseFinvoice } from './parse.js';

const STYLES: FinvoiceRowStyle[] = ['freeText', 'articleName', 'heading'];
const VERSIONS: FinvoiceGeneratorVersion[] = ['1.3', '2.0', '2.01', '3.0'];
const CHARSETS: FinvoiceCharset[] = ['UTF-8', 'ISO-8859-15'];

describe('Finvoice round trip: generate → parse gives the generated invoice', () => {
  let seed = 100;
  for (const operator of OPERATOR_IDS) {
    for (const rowStyle of STYLES) {
      for (const version of VERSIONS) {
        it(`${operator}, ${rowStyle} rows, Finvoice ${version}: every envelope × charset × credit note`, () => {
          for (const envelope of [false, true]) {
            for (const charset of CHARSETS) {
              for (const creditNote of [false, true]) {
                seed++;
                const g = generateFinvoice({
                  operator,
                  subscriptions: 6 + (seed % 7),
                  seed,
                  rowStyle,
                  version,
                  envelope,
                  charset,
                  creditNote,
                });
                const context = JSON.stringify(g.layout);
                expectSameInvoice(parseFinvoice(g.xml), g.expected, context);
              }
            }
          }
        });
      }
    }
  }

  it('gives the operator by the seller, the buyer business id, and negative amounts on a credit note', () => {
    for (const operator of OPERATOR_IDS) {
      const invoice = generateFinvoice({ operator, subscriptions: 3, seed: 7 }).expected;
      const credit = generateFinvoice({ operator, subscriptions: 3, seed: 7, creditNote: true }).expected;
      const parsed = parseFinvoice(
        generateFinvoice({ operator, subscriptions: 3, seed: 7, creditNote: true }).xml,
      );
      expect(parsed.operator).toBe(operator);
      expect(parsed).toEqual(credit);
      expect(invoice.totalExclVat).toBeGreaterThan(0);
      expect(credit.totalExclVat).toBe(-invoice.totalExclVat);
      expect(credit.totalInclVat).toBe(-invoice.totalInclVat);
      expect(credit.subscriptions[0].lines[0].amount).toBe(-invoice.subscriptions[0].lines[0].amount);
    }
  });

  it('keeps the buyer business id, and gives null when the file names none', () => {
    const withId = generateFinvoice({
      operator: 'elisa',
      subscriptions: 2,
      buyer: { businessId: '1234567-8' },
    });
    expect(parseFinvoice(withId.xml).businessId).toBe('1234567-8');
    const without = generateFinvoice({ operator: 'elisa', subscriptions: 2, buyer: { businessId: null } });
    expect(new TextDecoder().decode(without.xml)).not.toContain('BuyerPartyIdentifier');
    expect(parseFinvoice(without.xml).businessId).toBeNull();
  });

  it('decodes ISO-8859-15 as itself, not as ISO-8859-1 (€ Š š Ž ž Œ œ Ÿ)', () => {
    const name = 'Šakki & Žemaitis Œuvre Ÿ€ šžœ Oy';
    const g = generateFinvoice({
      operator: 'telia',
      subscriptions: 2,
      charset: 'ISO-8859-15',
      buyer: { name, businessId: '1234567-8' },
    });
    const at = Buffer.from(g.xml).indexOf('<BuyerOrganisationName>') + '<BuyerOrganisationName>'.length;
    expect([...g.xml.subarray(at, at + 2)]).toEqual([0xa6, 0x61]); // Š is 0xA6 in ISO-8859-15 (¦ in ISO-8859-1)
    expect(parseFinvoice(g.xml).customerName).toBe(name);
    // the same bytes declared ISO-8859-1 read as what ISO-8859-1 says they are
    const latin1 = Buffer.from(
      Buffer.from(g.xml).toString('latin1').replaceAll('encoding="ISO-8859-15"', 'encoding="ISO-8859-1"'),
      'latin1',
    );
    expect(parseFinvoice(latin1).customerName).toBe('¦akki & ´emaitis ¼uvre ¾¤ ¨¸½ Oy');
  });

  it('reads rows of one subscription that are not next to each other (fees, then usage, then one-offs)', () => {
    for (const rowStyle of STYLES) {
      const g = generateFinvoice({
        operator: 'elisa',
        subscriptions: 8,
        seed: 11,
        rowStyle,
        grouping: 'section',
      });
      const parsed = parseFinvoice(g.xml);
      expectSameInvoice(parsed, g.expected, rowStyle);
      expect(parsed.subscriptions.length).toBe(8);
      expect(parsed.subscriptions.every((s) => s.lines.length >= 1)).toBe(true);
    }
  });

  it('does not add SubInvoiceRow subtotal blocks to the lines or the totals', () => {
    const g = generateFinvoice({ operator: 'dna', subscriptions: 5, seed: 4, rowStyle: 'heading' });
    const text = new TextDecoder().decode(g.xml);
    expect(text.match(/<SubInvoiceRow>/g)?.length).toBeGreaterThanOrEqual(5);
    const parsed = parseFinvoice(g.xml);
    const lines = [...parsed.subscriptions.flatMap((s) => s.lines), ...parsed.otherLines];
    expect(lines.some((l) => /yhteensä/i.test(l.label))).toBe(false);
    expect(lines.length).toBe(text.match(/<RowVatExcludedAmount /g)?.length);
  });
});
