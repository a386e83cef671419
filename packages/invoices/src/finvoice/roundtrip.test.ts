import { describe, expect, it } from 'vitest';
import { InvoiceError } from '../errors.js';
import { parseInvoiceFile, sniffInvoiceFormat } from '../file.js';
import { generateInvoice } from '../generator/generate.js';
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

describe('sniffInvoiceFormat and parseInvoiceFile judge the file by its content', () => {
  it('tells XML (BOM and whitespace allowed), PDF and neither apart from the first KiB', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(sniffInvoiceFormat(enc('<?xml version="1.0"?><Finvoice/>'))).toBe('xml');
    expect(sniffInvoiceFormat(new Uint8Array([0xef, 0xbb, 0xbf, ...enc(' \r\n\t<Finvoice/>')]))).toBe('xml');
    expect(sniffInvoiceFormat(enc('<SOAP-ENV:Envelope>'))).toBe('xml');
    expect(sniffInvoiceFormat(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x3f, 0x00]))).toBe('xml');
    expect(sniffInvoiceFormat(enc('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffInvoiceFormat(enc(`${'x'.repeat(500)}%PDF-1.4`))).toBe('pdf');
    expect(sniffInvoiceFormat(enc(`${'x'.repeat(1100)}%PDF-1.4`))).toBeNull();
    expect(sniffInvoiceFormat(enc('MZ\x90\x00'))).toBeNull();
    expect(sniffInvoiceFormat(new Uint8Array(0))).toBeNull();
    expect(sniffInvoiceFormat(enc('Laskun numero 123'))).toBeNull();
  });

  it('reads a Finvoice file and a PDF through the same entry', async () => {
    const xml = generateFinvoice({ operator: 'dna', subscriptions: 3, seed: 5, envelope: true });
    expect(await parseInvoiceFile(xml.xml)).toEqual({ format: 'finvoice', invoice: xml.expected });
    const pdf = await generateInvoice({ operator: 'elisa', subscriptions: 2, seed: 5 });
    expect(await parseInvoiceFile(pdf.pdf)).toEqual({ format: 'pdf', invoice: pdf.expected });
  });

  it('refuses what is neither with unknown_file_type', async () => {
    for (const bytes of [new Uint8Array(0), new TextEncoder().encode('Laskun numero 123\n')]) {
      const err = await parseInvoiceFile(bytes).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvoiceError);
      expect((err as InvoiceError).code).toBe('unknown_file_type');
    }
  });
});
