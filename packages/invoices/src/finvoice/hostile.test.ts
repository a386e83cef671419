import { describe, expect, it } from 'vitest';
import { InvoiceError, type InvoiceErrorCode } from '../errors.js';
import { parseInvoiceFile } from '../file.js';
import { generateFinvoice } from '../generator/finvoice.js';
import { MAX_FINVOICE_ROWS, parseFinvoice } from './parse.js';
import { MAX_XML_BYTES, MAX_XML_DEPTH } from './xml.js';

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const dec = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** A small valid invoice's text, to break in one place. */
function validText(options: Partial<Parameters<typeof generateFinvoice>[0]> = {}): string {
  return dec(generateFinvoice({ operator: 'elisa', subscriptions: 3, seed: 21, ...options }).xml);
}

function refusal(bytes: Uint8Array): InvoiceError {
  try {
    parseFinvoice(bytes);
  } catch (err) {
    expect(err).toBeInstanceOf(InvoiceError);
    return err as InvoiceError;
  }
  throw new Error('expected the Finvoice file to be refused');
}

function expectRefused(bytes: Uint8Array, code: InvoiceErrorCode, message?: RegExp): InvoiceError {
  const err = refusal(bytes);
  expect(err.code, err.message).toBe(code);
  if (message) expect(err.message).toMatch(message);
  return err;
}

describe('hostile and broken Finvoice files are refused, each with its own code', () => {
  it('refuses an external entity (XXE) as a DOCTYPE with an internal subset, reading nothing', () => {
    const xxe = `<?xml version="1.0"?>\n<!DOCTYPE Finvoice [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<Finvoice Version="3.0"><SellerPartyDetails><SellerOrganisationName>&e;</SellerOrganisationName></SellerPartyDetails></Finvoice>`;
    expectRefused(enc(xxe), 'xml_doctype_refused', /internal subset/);
    // also as the root of any other document, and with parameter entities
    expectRefused(
      enc('<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1/x">%p;]><x/>'),
      'xml_doctype_refused',
    );
  });

  it('refuses a billion-laughs entity bomb without expanding anything', () => {
    const defs = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++)
      defs.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const bomb = `<?xml version="1.0"?>\n<!DOCTYPE Finvoice [${defs.join('')}]>\n<Finvoice Version="3.0">&lol9;</Finvoice>`;
    expectRefused(enc(bomb), 'xml_doctype_refused');
  });

  it('refuses an entity reference that no DOCTYPE declares as not well-formed', () => {
    expectRefused(
      enc(validText().replace('<InvoiceTypeText>LASKU', '<InvoiceTypeText>&lol9;LASKU')),
      'xml_not_well_formed',
      /undefined entity &lol9;/,
    );
  });

  it('ignores the Finvoice 1.x DOCTYPE naming Finvoice.dtd (never fetched)', () => {
    const g = generateFinvoice({ operator: 'dna', subscriptions: 2, version: '1.3' });
    expect(dec(g.xml)).toContain('<!DOCTYPE Finvoice SYSTEM "Finvoice.dtd">');
    expect(parseFinvoice(g.xml)).toEqual(g.expected);
  });

  it(`refuses 100,000 levels of nesting at level ${MAX_XML_DEPTH + 1}`, () => {
    const n = 100_000;
    const deep = `<?xml version="1.0"?><Finvoice Version="3.0">${'<a>'.repeat(n)}${'</a>'.repeat(n)}</Finvoice>`;
    expectRefused(enc(deep), 'xml_too_deep', /nested more than 32 levels/);
  });

  it('reads 20 MB of rows (the upload limit) and refuses more rows than the limit', () => {
    const big = generateFinvoice({ operator: 'telia', subscriptions: 4500, seed: 3 });
    expect(big.xml.length).toBeGreaterThan(19 * 1024 * 1024);
    expect(big.xml.length).toBeLessThan(MAX_XML_BYTES);
    const parsed = parseFinvoice(big.xml);
    expect(parsed.subscriptions.length).toBe(4500);
    expect(parsed.totalInclVat).toBe(big.expected.totalInclVat);

    const row = '<InvoiceRow/>';
    const many = `<?xml version="1.0"?><Finvoice Version="3.0">${row.repeat(MAX_FINVOICE_ROWS + 1)}</Finvoice>`;
    expectRefused(enc(many), 'xml_too_large', /more than 200000 invoice rows/);
    expectRefused(new Uint8Array(MAX_XML_BYTES + 1).fill(0x20), 'xml_too_large');
  }, 120_000);

  it('refuses ISO-8859-15 bytes declared UTF-8 as not well-formed (invalid UTF-8), naming the line', () => {
    const iso = generateFinvoice({ operator: 'elisa', subscriptions: 2, charset: 'ISO-8859-15' }).xml;
    const lie = Buffer.from(
      Buffer.from(iso).toString('latin1').replace('encoding="ISO-8859-15"', 'encoding="UTF-8"'),
      'latin1',
    );
    expectRefused(lie, 'xml_not_well_formed', /not valid UTF-8 .*line \d+/);
    // and without any declaration (UTF-8 by default)
    expectRefused(
      enc('<Finvoice Version="3.0">\u00e4</Finvoice>').map((b, i, a) => (i === a.length - 13 ? 0xe4 : b)),
      'xml_not_well_formed',
    );
  });

  it('refuses an unknown or UTF-16 charset', () => {
    expectRefused(
      enc(validText().replace('encoding="UTF-8"', 'encoding="KOI8-R"')),
      'xml_unsupported_charset',
      /KOI8-R/,
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(validText(), 'utf16le')]);
    expectRefused(utf16, 'xml_unsupported_charset', /UTF-16/);
  });

  it('refuses a truncated file as not well-formed', () => {
    const text = validText();
    for (const cut of [0.2, 0.5, 0.99]) {
      expectRefused(enc(text.slice(0, Math.floor(text.length * cut))), 'xml_not_well_formed');
    }
  });

  it('refuses other well-formedness errors', () => {
    const text = validText();
    for (const broken of [
      text.replace('</InvoiceNumber>', '</InvoiceNumbr>'),
      text.replace('</InvoiceNumber>', '</InvoiceNumbe>'),
      text.replace('</InvoiceNumber>', '</InvoiceNumberX>'),
      text.replace('</InvoiceNumber>', '</InvoiceNumber.1>'),
      text.replace('<InvoiceTypeText>LASKU', '<InvoiceTypeText>A & B'),
      text.replace('<OriginCode>', '<OriginCode a="1" a="2">'),
      text.replace('<OriginCode>', '<OriginCode a="<">'),
      text.replace('<OriginCode>', '<OriginCode>\u0001'),
      text.replace('<OriginCode>', '<OriginCode>]]>'),
      text.replace('<OriginCode>', '<!-- a -- b --><OriginCode>'),
      `${text}trailing text`,
    ]) {
      expectRefused(enc(broken), 'xml_not_well_formed');
    }
    expectRefused(
      enc(text.replace('</InvoiceNumber>', '</InvoiceNumber-2>')),
      'xml_not_well_formed',
      /<\/InvoiceNumber-2> does not close <InvoiceNumber>/,
    );
    // white space before an end tag's ">" is allowed
    expect(parseFinvoice(enc(text.replace('</InvoiceNumber>', '</InvoiceNumber \n>'))).invoiceNumber).toBe(
      parseFinvoice(enc(text)).invoiceNumber,
    );
    // a second root is a second document: said so (bounds.test.ts)
    expectRefused(enc(`${text}<Finvoice Version="3.0"/>`), 'xml_several_documents');
  });

  it('refuses a UBL invoice (another root) as not a Finvoice', () => {
    const ubl =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID xmlns:cbc="urn:x">1</cbc:ID></Invoice>';
    expectRefused(enc(ubl), 'not_finvoice', /UBL/);
    expectRefused(enc('<?xml version="1.0"?><html><body/></html>'), 'not_finvoice', /<html>/);
  });

  it('refuses an unknown or missing Finvoice version', () => {
    expectRefused(
      enc(validText().replace('Version="3.0"', 'Version="4.0"')),
      'finvoice_unsupported_version',
      /"4\.0"/,
    );
    expectRefused(enc(validText().replace(' Version="3.0"', '')), 'finvoice_unsupported_version');
  });

  it('refuses a seller that is not Elisa, Telia or DNA', () => {
    const other = validText()
      .replaceAll('0116510-6', '1234567-8')
      .replaceAll('FI01165106', 'FI12345678')
      .replaceAll('Elisa Oyj', 'Muu Operaattori Oy');
    expectRefused(enc(other), 'finvoice_unknown_seller', /Muu Operaattori Oy \(1234567-8\)/);
  });

  it('refuses invoice type INV03 (and anything but INV01 and INV02)', () => {
    expectRefused(
      enc(validText().replace('<InvoiceTypeCode>INV01', '<InvoiceTypeCode>INV03')),
      'finvoice_unsupported_type',
      /INV03/,
    );
  });

  it('reads rows that are off the total excluding VAT by a cent, recording each difference (issue 38)', () => {
    const text = validText();
    const m = /<InvoiceTotalVatExcludedAmount AmountCurrencyIdentifier="EUR">(-?\d+),(\d\d)</.exec(text)!;
    const stated = Number(m[1]) * 100 + Number(m[2]);
    const cents = stated + 1;
    const off = text.replace(
      m[0],
      `<InvoiceTotalVatExcludedAmount AmountCurrencyIdentifier="EUR">${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}<`,
    );
    const invoice = parseFinvoice(enc(off));
    expect(invoice.totalExclVat).toBe(cents / 100);
    expect(invoice.differences).toContainEqual({
      where: 'rows',
      stated: cents / 100,
      computed: stated / 100,
      difference: 0.01,
    });
    // the VAT specification's base and excl. + VAT no longer meet the stated totals either
    expect(invoice.differences?.map((d) => d.where)).toEqual(['rows', 'vat', 'total']);
    expect(parseFinvoice(enc(text)).differences).toBeUndefined();
  });

  it('reads VAT that is off by a cent, recording the rate, the stated and the computed VAT (issue 38)', () => {
    const text = validText();
    const m = /<VatRateAmount AmountCurrencyIdentifier="EUR">(\d+),(\d\d)</.exec(text)!;
    const computed = Number(m[1]) * 100 + Number(m[2]);
    const cents = computed + 1;
    const amount = `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
    const off = text
      .replace(m[0], `<VatRateAmount AmountCurrencyIdentifier="EUR">${amount}<`)
      .replace(
        /<InvoiceTotalVatAmount AmountCurrencyIdentifier="EUR">[^<]+</,
        `<InvoiceTotalVatAmount AmountCurrencyIdentifier="EUR">${amount}<`,
      );
    const vat = parseFinvoice(enc(off));
    expect(vat.vatAmount).toBe(cents / 100);
    expect(vat.differences).toContainEqual({
      where: 'vat',
      rate: Number(/<VatRatePercent>([\d,]+)</.exec(text)![1].replace(',', '.')),
      stated: cents / 100,
      computed: computed / 100,
      difference: 0.01,
    });
    // the VAT total alone off by a cent
    const total = text.replace(
      /<InvoiceTotalVatAmount AmountCurrencyIdentifier="EUR">(\d+),(\d\d)</,
      (_, e: string, c: string) => {
        const v = Number(e) * 100 + Number(c) + 1;
        return `<InvoiceTotalVatAmount AmountCurrencyIdentifier="EUR">${Math.floor(v / 100)},${String(v % 100).padStart(2, '0')}<`;
      },
    );
    expect(parseFinvoice(enc(total)).differences).toEqual([
      { where: 'vat', stated: (computed + 1) / 100, computed: computed / 100, difference: 0.01 },
      expect.objectContaining({ where: 'total', difference: -0.01 }),
    ]);
  });

  it('still refuses what is not a figure: no total, an amount that is not a number, a bad date', () => {
    const text = validText();
    expectRefused(
      enc(text.replace(/<InvoiceTotalVatExcludedAmount [^>]*>[^<]*<\/InvoiceTotalVatExcludedAmount>/, '')),
      'malformed_invoice',
      /no InvoiceTotalVatExcludedAmount/,
    );
    expectRefused(
      enc(text.replace(/(<RowVatExcludedAmount [^>]*>)[^<]*</, '$1kymmenen<')),
      'malformed_invoice',
      /"kymmenen" is not a Finvoice amount/,
    );
    expectRefused(
      enc(text.replace(/(<InvoiceDate [^>]*>)\d+</, '$120261340<')),
      'malformed_invoice',
      /InvoiceDate "20261340" is not a CCYYMMDD date/,
    );
  });

  it('gives every refusal through parseInvoiceFile as well (content judged, not the name)', async () => {
    const err = await parseInvoiceFile(enc('<?xml version="1.0"?><Invoice/>')).catch((e: unknown) => e);
    expect((err as InvoiceError).code).toBe('not_finvoice');
  });
});
