import { describe, expect, it } from 'vitest';
import { InvoiceError, type InvoiceErrorCode } from '../errors.js';
import { generateFinvoice } from '../generator/finvoice.js';
import { checkTextBounds, TEXT_LIMITS, TextTooLongError } from '../limits.js';
import { parseFinvoice } from './parse.js';

/**
 * Issue 37: texts of bounded length (items 2), a charset that disagrees with the bytes, and two
 * documents in one file (item 7), each refused with its own reason.
 */
const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const dec = (b: Uint8Array) => Buffer.from(b).toString('utf8');

function validText(options: Partial<Parameters<typeof generateFinvoice>[0]> = {}): string {
  return dec(generateFinvoice({ operator: 'elisa', subscriptions: 3, seed: 37, ...options }).xml);
}

function expectRefused(bytes: Uint8Array, code: InvoiceErrorCode, message?: RegExp): InvoiceError {
  let err: unknown;
  try {
    parseFinvoice(bytes);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InvoiceError);
  expect((err as InvoiceError).code, (err as Error).message).toBe(code);
  if (message) expect((err as Error).message).toMatch(message);
  return err as InvoiceError;
}

describe('texts of an e-invoice are bounded', () => {
  it('refuses a 19 MB row label, naming the row and the limit, without reading it into an invoice', () => {
    const text = validText();
    const huge = text.replace(
      /<ArticleName>[^<]*<\/ArticleName>/,
      `<ArticleName>${'Liittymä '.repeat(2_000_000)}</ArticleName>`,
    );
    expect(huge.length).toBeGreaterThan(18_000_000);
    const err = expectRefused(
      enc(huge),
      'text_too_long',
      /^ArticleName of row 1 is [\d,]+ characters long \(at most 1,000\)$/,
    );
    expect(err).toBeInstanceOf(TextTooLongError);
  });

  it('refuses a 19 MB user name in a row free text', () => {
    const huge = validText().replace(
      /<RowFreeText>(\d+) [^<]*<\/RowFreeText>/,
      (_, n: string) => `<RowFreeText>${n} ${'Matti'.repeat(4_000_000)}</RowFreeText>`,
    );
    expectRefused(enc(huge), 'text_too_long', /^RowFreeText of row \d+ is 20,000,004 characters long/);
  });

  it('refuses a user name over its limit though each of its free texts is short', () => {
    // Telia's style: the number starts the article name, the name is the row's free texts joined.
    const text = validText({ operator: 'telia', rowStyle: 'articleName' });
    expect(text).toMatch(/<ArticleName>\+358[^<]*<\/ArticleName>\s*<DeliveredQuantity/);
    const many = `<RowFreeText>${'Nimi '.repeat(60).trim()}</RowFreeText>`.repeat(3);
    const long = text.replace(/<RowFreeText>[^<]*<\/RowFreeText>/, many);
    expectRefused(
      enc(long),
      'text_too_long',
      new RegExp(`user name of subscription .* \\(at most ${TEXT_LIMITS.userName}\\)`),
    );
  });

  it("refuses a buyer's name and an invoice number over their limits", () => {
    const text = validText();
    expectRefused(
      enc(text.replace(/<BuyerOrganisationName>[^<]*</, `<BuyerOrganisationName>${'Oy '.repeat(100)}<`)),
      'text_too_long',
      /^the buyer's name is 299 characters long \(at most 200\)$/,
    );
    expectRefused(
      enc(text.replace(/<InvoiceNumber>[^<]*</, `<InvoiceNumber>${'1'.repeat(65)}<`)),
      'text_too_long',
      /^the invoice number is 65 characters long/,
    );
  });

  it('names the line whose label is over its limit: its place in its subscription, or on the invoice', () => {
    const invoice = structuredClone(
      generateFinvoice({ operator: 'elisa', subscriptions: 2, seed: 37 }).expected,
    );
    expect(checkTextBounds(structuredClone(invoice))).toEqual(invoice);
    const sub = invoice.subscriptions[1];
    const long = structuredClone(invoice);
    long.subscriptions[1].lines[1].label = 'x'.repeat(TEXT_LIMITS.label + 1);
    expect(() => checkTextBounds(long)).toThrow(
      `the label of line 2 of subscription ${sub.phoneNumber} is 201 characters long (at most 200)`,
    );
    const other = structuredClone(invoice);
    other.otherLines.push({ ...sub.lines[0], label: 'Maksu', unitCode: 'u'.repeat(65) });
    expect(() => checkTextBounds(other)).toThrow(
      `the quantity unit of invoice-level line ${other.otherLines.length} is 65 characters long (at most 64)`,
    );
  });

  it('reads texts up to the limits', () => {
    const name = `Matti ${'Ä'.repeat(TEXT_LIMITS.userName - 6)}`;
    const text = validText().replace(
      /<RowFreeText>(\d+) [^<]*<\/RowFreeText>/g,
      (_, n: string) => `<RowFreeText>${n} ${name}</RowFreeText>`,
    );
    const parsed = parseFinvoice(enc(text));
    expect(parsed.subscriptions.every((s) => s.userName === name)).toBe(true);
  });
});

describe('a charset that disagrees with the bytes is refused, not guessed', () => {
  it('refuses UTF-8 bytes declared ISO-8859-15 (names would come out as Ã¤)', () => {
    const lie = validText().replace('encoding="UTF-8"', 'encoding="ISO-8859-15"');
    expect(lie).toMatch(/[äöåÄÖÅ]/);
    expectRefused(
      enc(lie),
      'xml_charset_mismatch',
      /declares the charset "ISO-8859-15" but its bytes are UTF-8/,
    );
    expectRefused(
      enc(lie.replace('encoding="ISO-8859-15"', 'encoding="windows-1252"')),
      'xml_charset_mismatch',
    );
  });

  it('refuses a UTF-8 byte order mark before a document declared ISO-8859-15', () => {
    const iso = generateFinvoice({
      operator: 'elisa',
      subscriptions: 2,
      seed: 37,
      charset: 'ISO-8859-15',
    }).xml;
    // the same file without the mark is read
    expect(parseFinvoice(iso).subscriptions).toHaveLength(2);
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(iso)]);
    expectRefused(marked, 'xml_charset_mismatch', /byte order mark but declares the charset "ISO-8859-15"/);
  });

  it('still reads a UTF-8 byte order mark before a UTF-8 document and plain ASCII declared ISO-8859-1', () => {
    const utf8 = generateFinvoice({ operator: 'elisa', subscriptions: 2, seed: 37 }).xml;
    expect(
      parseFinvoice(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8)])).subscriptions,
    ).toHaveLength(2);
    const ascii = dec(utf8)
      .replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
      .replace(/[^\t\n\r\x20-\x7e]/g, 'a');
    expect(parseFinvoice(enc(ascii)).subscriptions).toHaveLength(2);
  });
});

describe('two documents in one file', () => {
  it('refuses two SOAP-framed invoices in one file as "one invoice per file"', () => {
    const a = generateFinvoice({ operator: 'dna', subscriptions: 2, seed: 1, envelope: true }).xml;
    const b = generateFinvoice({ operator: 'dna', subscriptions: 2, seed: 2, envelope: true }).xml;
    const both = Buffer.concat([Buffer.from(a), Buffer.from('\n'), Buffer.from(b)]);
    expect(parseFinvoice(a).subscriptions).toHaveLength(2);
    expectRefused(both, 'xml_several_documents', /more than one <Finvoice> document .*one invoice per file/);
  });

  it('refuses two bare documents as well, and other content after the root as before', () => {
    const a = validText();
    expectRefused(enc(`${a}\n${a}`), 'xml_several_documents', /another starts on line \d+/);
    expectRefused(enc(`${a}<x/>`), 'xml_not_well_formed', /content after the root element/);
  });
});
