/**
 * Issue 38 items 1–6: the shapes of real Finvoice files, each made by the generator from a seed and
 * read back to the invoice the generator says it is.
 */
import { describe, expect, it } from 'vitest';
import type { InvoiceError } from '../errors.js';
import { generateFinvoice, type FinvoiceOptions, type FinvoiceRowStyle } from '../generator/finvoice.js';
import { expectSameInvoice, OPERATOR_IDS } from '../test-helpers.js';
import type { InvoiceLine, ParsedInvoice } from '../types.js';
import { parseFinvoice } from './parse.js';

const STYLES: FinvoiceRowStyle[] = ['freeText', 'articleName', 'heading'];
const dec = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const lines = (invoice: ParsedInvoice): InvoiceLine[] => [
  ...invoice.subscriptions.flatMap((s) => s.lines),
  ...invoice.otherLines,
];

/** Generates each operator's file of `options` (both credit note and invoice) and reads it back. */
function roundTrip(options: Omit<FinvoiceOptions, 'operator' | 'subscriptions'>, seed: number) {
  const read: ParsedInvoice[] = [];
  for (const operator of OPERATOR_IDS) {
    for (const creditNote of [false, true]) {
      const g = generateFinvoice({ operator, subscriptions: 5, seed: seed++, creditNote, ...options });
      const parsed = parseFinvoice(g.xml);
      expectSameInvoice(parsed, g.expected, JSON.stringify({ ...g.layout, ...options }));
      read.push(parsed);
    }
  }
  return read;
}

describe('item 1: quantities in InvoicedQuantity', () => {
  it('reads the minutes, messages and megabytes of rows that state them only in InvoicedQuantity', () => {
    const [invoice] = roundTrip({ quantityElement: 'InvoicedQuantity' }, 10);
    const usage = lines(invoice).filter((l) => l.unit === 'min' || l.unit === 'mb');
    expect(usage.length).toBeGreaterThan(0);
    expect(usage.every((l) => l.quantity !== null && l.quantity > 0)).toBe(true);
  });

  it('counts a quantity stated in both DeliveredQuantity and InvoicedQuantity once', () => {
    roundTrip({ quantityElement: 'both' }, 20);
    const g = generateFinvoice({ operator: 'telia', subscriptions: 3, seed: 3, quantityElement: 'both' });
    expect(dec(g.xml)).toMatch(/<\/DeliveredQuantity>\s*<InvoicedQuantity /);
  });
});

describe('item 2: units Kulu does not convert', () => {
  it('keeps the money and the quantity of rows in MON, pv, DAY, vrk, ZZ, KG, D, h and no unit as other', () => {
    const [invoice] = roundTrip({ oddUnits: true }, 30);
    const other = lines(invoice).filter((l) => l.unit === 'other');
    expect(other.map((l) => l.unitCode).sort()).toEqual([
      '',
      'D',
      'DAY',
      'KG',
      'MON',
      'ZZ',
      'h',
      'pv',
      'vrk',
    ]);
    expect(other.every((l) => l.quantity! > 0 && l.amount > 0)).toBe(true);
    // an hour of a service is not 60 minutes of calls; an hour of calls is
    expect(other.find((l) => l.unitCode === 'h')).toMatchObject({
      label: 'Tekninen tuki',
      category: 'other',
    });
    const call = lines(invoice).find((l) => l.label === 'Puhelut lankaverkkoon' && l.periodStart === null)!;
    expect(call).toMatchObject({ category: 'voice', unit: 'min' });
    expect(call.quantity! % 15).toBe(0);
  });

  it('refuses a non-operator file with odd rows for its seller, never for a row', () => {
    const text = dec(generateFinvoice({ operator: 'elisa', subscriptions: 3, seed: 5 }).xml);
    const other = text
      .replaceAll('0116510-6', '1234567-8')
      .replaceAll('FI01165106', 'FI12345678')
      .replace(/(<RowVatExcludedAmount [^>]*>)[^<]*</, '$1kaksi<')
      .replace(/(<StartDate [^>]*>)\d+</, '$120261399<')
      .replace(/QuantityUnitCode="kpl"/, 'QuantityUnitCode="säkki"');
    let err: InvoiceError | undefined;
    try {
      parseFinvoice(enc(other));
    } catch (e) {
      err = e as InvoiceError;
    }
    expect(err?.code, err?.message).toBe('finvoice_unknown_seller');
    // the operator's own file with the same rows is refused for the row
    const own = text.replace(/(<RowVatExcludedAmount [^>]*>)[^<]*</, '$1kaksi<');
    expect(() => parseFinvoice(enc(own))).toThrow(/"kaksi" is not a Finvoice amount/);
  });
});

describe('item 3: invoice-level charges and discounts, VAT-included rows', () => {
  it('reads DiscountDetails and ChargeDetails as invoice-level lines counted in the rows sum', () => {
    const [invoice, credit] = roundTrip({ invoiceCharges: true }, 40);
    const discounts = invoice.otherLines.filter((l) => l.category === 'discount' && l.amount < 0);
    const charges = invoice.otherLines.filter(
      (l) => l.label === 'Laskutuspalvelumaksu' || l.label === 'Käsittelymaksu',
    );
    expect(discounts.length).toBeGreaterThanOrEqual(1);
    expect(charges).toHaveLength(1);
    expect(charges[0]).toMatchObject({ category: 'other' });
    expect(invoice.differences).toBeUndefined();
    expect(credit.otherLines.some((l) => l.category === 'discount' && l.amount > 0)).toBe(true);
  });

  it('takes the VAT out of rows that state only RowAmount including VAT, at the row rate, to the cent', () => {
    const [invoice] = roundTrip({ vatIncludedRows: true }, 50);
    roundTrip({ vatIncludedRows: true, mixedVat: true }, 56);
    const g = generateFinvoice({ operator: 'elisa', subscriptions: 2, seed: 50, vatIncludedRows: true });
    expect(dec(g.xml)).not.toMatch(/<RowVatExcludedAmount|<RowVatAmount/);
    // 12,55 € including 25,5 % VAT: VAT 12,55 × 25,5 / 125,5 = 2,55 → 10,00 € excl.
    const one = dec(g.xml).replace(
      /(<InvoiceRow>\s*<ArticleIdentifier>[^<]*<\/ArticleIdentifier>[\s\S]*?<RowVatRatePercent>)[\d,]+(<\/RowVatRatePercent>[\s\S]*?<RowAmount [^>]*>)[^<]*</,
      '$125,5$212,55<',
    );
    const first = lines(parseFinvoice(enc(one)))[0];
    expect(first.amount).toBe(10);
    expect(invoice.totalExclVat).toBeGreaterThan(0);
  });
});

describe('item 4: several VAT rates', () => {
  it('gives every rate (also 0 %) with its base and VAT, each line its rate, and the largest base as vatRate', () => {
    for (const invoice of roundTrip({ mixedVat: true }, 60)) {
      const rates = invoice.vatBreakdown!.map((b) => b.rate);
      expect(rates).toEqual(expect.arrayContaining([14, 10, 0]));
      expect(rates.length).toBeGreaterThanOrEqual(4);
      const largest = invoice.vatBreakdown!.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));
      expect(invoice.vatRate).toBe(largest.rate);
      expect(lines(invoice).every((l) => typeof l.vatRate === 'number')).toBe(true);
      expect(invoice.vatBreakdown!.reduce((s, b) => s + Math.round(b.vat * 100), 0)).toBe(
        Math.round(invoice.vatAmount * 100),
      );
    }
  });
});

describe('differences of an e-invoice with several rates', () => {
  it('records the one rate whose stated VAT is off, with its rate, and reads the invoice', () => {
    const g = generateFinvoice({ operator: 'telia', subscriptions: 4, seed: 61, mixedVat: true });
    const text = dec(g.xml);
    const spec =
      /(<VatRatePercent>14<\/VatRatePercent>\s*<VatCode>S<\/VatCode>\s*<VatRateAmount [^>]*>)([^<]+)</;
    const cents = Math.round(Number(spec.exec(text)![2].replace(',', '.')) * 100);
    const off = text.replace(spec, `$1${((cents + 5) / 100).toFixed(2).replace('.', ',')}<`);
    const invoice = parseFinvoice(enc(off));
    expect(invoice.differences).toEqual([
      { where: 'vat', rate: 14, stated: (cents + 5) / 100, computed: cents / 100, difference: 0.05 },
      // the rates' stated VAT no longer adds up to the VAT total
      {
        where: 'vat',
        stated: g.expected.vatAmount,
        computed: (Math.round(g.expected.vatAmount * 100) + 5) / 100,
        difference: -0.05,
      },
    ]);
    expect(invoice.vatBreakdown!.find((b) => b.rate === 14)!.vat).toBe((cents + 5) / 100);
    expect(invoice.subscriptions).toEqual(g.expected.subscriptions);
  });
});

describe('item 5: copies and cancellations', () => {
  it('reads OriginCode Copy and Cancel with the number of the invoice they copy or cancel', () => {
    const [copy] = roundTrip({ origin: 'copy' }, 70);
    expect(copy.origin).toBe('copy');
    expect(copy.originalInvoiceNumber).toBe(copy.invoiceNumber);
    const [cancel] = roundTrip({ origin: 'cancel' }, 80);
    expect(cancel.origin).toBe('cancel');
    expect(cancel.originalInvoiceNumber).not.toBe(cancel.invoiceNumber);
    const original = generateFinvoice({ operator: 'dna', subscriptions: 2, seed: 1 });
    expect(parseFinvoice(original.xml).origin).toBeUndefined();
  });

  it('takes the number from OriginalInvoiceReference where OriginalInvoiceNumber is absent', () => {
    const text = dec(generateFinvoice({ operator: 'dna', subscriptions: 2, seed: 2, origin: 'cancel' }).xml);
    const ref = text.replace(
      /<OriginalInvoiceNumber>([^<]*)<\/OriginalInvoiceNumber>/,
      '<OriginalInvoiceReference><InvoiceNumber>X-$1</InvoiceNumber></OriginalInvoiceReference>',
    );
    const invoice = parseFinvoice(enc(ref));
    expect(invoice.origin).toBe('cancel');
    expect(invoice.originalInvoiceNumber).toMatch(/^X-\d+$/);
  });
});

describe('item 6: labels before a name or a number in free text', () => {
  it('leaves Käyttäjä, User, Liittymä and Numero out of the user names, in every row style', () => {
    let seed = 90;
    for (const rowStyle of STYLES) {
      const [invoice] = roundTrip({ labelledFreeText: true, rowStyle }, (seed += 10));
      expect(invoice.subscriptions.some((s) => /käyttäjä|user|liittymä|numero/i.test(s.userName))).toBe(
        false,
      );
    }
  });
});

describe('every shape at once', () => {
  it('reads a Finvoice 3.0 file with every shape of issue 38, in each row style', () => {
    let seed = 200;
    for (const rowStyle of STYLES) {
      roundTrip(
        {
          rowStyle,
          quantityElement: 'InvoicedQuantity',
          invoiceCharges: true,
          vatIncludedRows: true,
          mixedVat: true,
          oddUnits: true,
          origin: 'copy',
          labelledFreeText: true,
        },
        (seed += 10),
      );
    }
  });
});
