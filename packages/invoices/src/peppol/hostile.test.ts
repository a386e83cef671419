import { describe, expect, it } from 'vitest';
import { InvoiceError, type InvoiceErrorCode } from '../errors.js';
import { parseInvoiceFile } from '../file.js';
import { MAX_XML_BYTES, MAX_XML_DEPTH } from '../finvoice/xml.js';
import { generateFinvoice } from '../generator/finvoice.js';
import { generatePeppol, type PeppolOptions } from '../generator/peppol.js';
import { parsePeppol } from './parse.js';

const enc = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';

/** A small valid Peppol invoice's text, to break in one place. */
function validText(options: Partial<PeppolOptions> = {}): string {
  return Buffer.from(
    generatePeppol({ operator: 'elisa', subscriptions: 3, seed: 21, ...options }).xml,
  ).toString('utf8');
}

function expectRefused(bytes: Uint8Array, code: InvoiceErrorCode, message?: RegExp): InvoiceError {
  let error: unknown = null;
  try {
    parsePeppol(bytes);
  } catch (err) {
    error = err;
  }
  expect(error, 'expected the Peppol file to be refused').toBeInstanceOf(InvoiceError);
  const err = error as InvoiceError;
  expect(err.code, err.message).toBe(code);
  if (message) expect(err.message).toMatch(message);
  return err;
}

describe('hostile and foreign Peppol files are refused, each with its own code', () => {
  it('refuses a DOCTYPE with entities (XXE, entity bombs) before reading anything, also through the one entry', async () => {
    const xxe = validText().replace(
      '<Invoice ',
      '<!DOCTYPE Invoice [<!ENTITY e SYSTEM "file:///etc/passwd"><!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>\n<Invoice ',
    );
    expectRefused(enc(xxe.replace('<cbc:Note>Hinnat', '<cbc:Note>&e;&b;Hinnat')), 'xml_doctype_refused');
    const err = await parseInvoiceFile(enc(xxe)).catch((e: unknown) => e);
    expect((err as InvoiceError).code).toBe('xml_doctype_refused');
    // an entity that is not declared is not expanded: not well-formed
    expectRefused(enc(validText().replace('<cbc:Note>Hinnat', '<cbc:Note>&e;Hinnat')), 'xml_not_well_formed');
  });

  it('refuses a document nested too deep and one too large', () => {
    const deep = `${'<cac:X>'.repeat(MAX_XML_DEPTH)}${'</cac:X>'.repeat(MAX_XML_DEPTH)}`;
    expectRefused(enc(validText().replace('<cbc:ProfileID>', `${deep}<cbc:ProfileID>`)), 'xml_too_deep');
    const big = new Uint8Array(MAX_XML_BYTES + 1).fill(0x20);
    big.set(enc(`<Invoice xmlns="${UBL}Invoice-2">`));
    expectRefused(big, 'xml_too_large');
  });

  it('refuses XML that is not a UBL invoice: a Finvoice file, a UBL Order, an Invoice outside the UBL namespace', () => {
    expectRefused(
      generateFinvoice({ operator: 'elisa', subscriptions: 1, seed: 1 }).xml,
      'not_peppol',
      /Finvoice/,
    );
    expectRefused(
      enc(
        `<?xml version="1.0"?><Order xmlns="${UBL}Order-2"><cbc:ID xmlns:cbc="${UBL}CommonBasicComponents-2">1</cbc:ID></Order>`,
      ),
      'not_peppol',
      /UBL Order/,
    );
    expectRefused(enc('<Invoice><ID>1</ID></Invoice>'), 'not_peppol', /in no namespace/);
    expectRefused(enc('<?xml version="1.0"?><Invoice'), 'xml_not_well_formed');
  });

  it('refuses another version than EN 16931 / BIS Billing 3.0, and a document without one', () => {
    const bis2 =
      'urn:www.cenbii.eu:transaction:biitrns010:ver2.0:extended:urn:www.peppol.eu:bis:peppol4a:ver2.0';
    const text = validText();
    const customization = /<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/;
    expectRefused(
      enc(text.replace(customization, `<cbc:CustomizationID>${bis2}</cbc:CustomizationID>`)),
      'peppol_unsupported_version',
      /peppol4a/,
    );
    expectRefused(enc(text.replace(customization, '')), 'peppol_unsupported_version', /no CustomizationID/);
  });

  it('refuses other document types than an invoice (380) and a credit note (381)', () => {
    expectRefused(
      enc(validText().replace('<cbc:InvoiceTypeCode>380<', '<cbc:InvoiceTypeCode>386<')),
      'peppol_unsupported_type',
      /InvoiceTypeCode 386/,
    );
    expectRefused(
      enc(
        validText({ creditNote: true }).replace(
          '<cbc:CreditNoteTypeCode>381<',
          '<cbc:CreditNoteTypeCode>396<',
        ),
      ),
      'peppol_unsupported_type',
      /CreditNoteTypeCode 396/,
    );
  });

  it('refuses a seller that is not an operator Kulu reads, naming it and its business id', () => {
    const seller = { name: 'Sähkö Oy', businessId: '1234567-1' };
    for (const sellerIds of ['all', 'ovt', 'vat'] as const) {
      expectRefused(
        generatePeppol({ operator: 'elisa', subscriptions: 2, seed: 2, seller, sellerIds }).xml,
        'peppol_unknown_seller',
        /the seller Sähkö Oy \(1234567-1\) is not an operator Kulu reads/,
      );
    }
  });

  it('refuses another currency than EUR, in the document or on any amount', () => {
    expectRefused(
      generatePeppol({ operator: 'telia', subscriptions: 2, seed: 2, currency: 'SEK' }).xml,
      'peppol_unsupported_currency',
      /in SEK; Kulu reads EUR/,
    );
    const text = validText();
    const last = text.lastIndexOf('currencyID="EUR"');
    expectRefused(
      enc(`${text.slice(0, last)}currencyID="USD"${text.slice(last + 16)}`),
      'peppol_unsupported_currency',
      /USD/,
    );
  });

  it('judges who sent the file before any of its lines: a non-operator’s file with unreadable lines is refused for its seller', () => {
    const text = Buffer.from(
      generatePeppol({
        operator: 'dna',
        subscriptions: 2,
        seed: 4,
        seller: { name: 'Kauppa Oy', businessId: '7654321-8' },
      }).xml,
    )
      .toString('utf8')
      .replace(
        /<cbc:LineExtensionAmount currencyID="EUR">[^<]*</g,
        '<cbc:LineExtensionAmount currencyID="EUR">x<',
      );
    expectRefused(enc(text), 'peppol_unknown_seller');
    // the same lines from an operator: a row reason
    const operator = validText().replace(
      /(<\/cbc:InvoicedQuantity>\s*<cbc:LineExtensionAmount currencyID="EUR">)[^<]*</,
      '$1x<',
    );
    expectRefused(enc(operator), 'malformed_invoice', /LineExtensionAmount "x"/);
  });

  it('refuses a line without its amount, not reading it as a heading', () => {
    const text = validText().replace(
      /(<\/cbc:InvoicedQuantity>\s*)<cbc:LineExtensionAmount currencyID="EUR">[^<]*<\/cbc:LineExtensionAmount>/,
      '$1',
    );
    expectRefused(enc(text), 'malformed_invoice', /LineExtensionAmount/);
  });

  it('refuses a name longer than any real invoice has (text_too_long), never cutting it', () => {
    const text = validText().replace(
      /<cbc:Name>[^<]*<\/cbc:Name>/,
      `<cbc:Name>${'x'.repeat(1500)}</cbc:Name>`,
    );
    expectRefused(enc(text), 'text_too_long');
  });

  it('refuses a quantity unit longer than any real one, and names no huge currency', () => {
    const unit = validText().replace(/unitCode="[^"]*"/, `unitCode="${'Z'.repeat(100_000)}"`);
    expectRefused(enc(unit), 'text_too_long', /the quantity unit of .* is 100,000 characters long/);
    const currency = validText().replace('currencyID="EUR"', `currencyID="${'X'.repeat(100_000)}"`);
    const err = expectRefused(enc(currency), 'peppol_unsupported_currency');
    expect(err.message.length).toBeLessThan(200);
    const stranger = Buffer.from(
      generatePeppol({
        operator: 'elisa',
        subscriptions: 1,
        seed: 2,
        sellerIds: 'vat',
        seller: { name: 'Kauppa Oy', businessId: '7654321-8' },
      }).xml,
    )
      .toString('utf8')
      .replace('schemeID="EM"', `schemeID="${'S'.repeat(100_000)}"`)
      .replace(/<cbc:CompanyID>FI76543218</, '<cbc:CompanyID>x<');
    const unknown = expectRefused(enc(stranger), 'peppol_unknown_seller');
    expect(unknown.message.length).toBeLessThan(400);
  });
});
