import { describe, expect, it } from 'vitest';
import { InvoiceError } from './errors.js';
import { parseInvoiceFile, sniffInvoiceFormat } from './file.js';
import { generateFinvoice } from './generator/finvoice.js';
import { generateInvoice } from './generator/generate.js';
import { generatePeppol } from './generator/peppol.js';

const enc = (s: string) => new TextEncoder().encode(s);
const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:';

describe('sniffInvoiceFormat: one sniffer for every way in, by content', () => {
  it('tells a PDF, a Finvoice file and neither apart as before', () => {
    expect(sniffInvoiceFormat(enc('<?xml version="1.0"?><Finvoice/>'))).toBe('finvoice');
    expect(sniffInvoiceFormat(new Uint8Array([0xef, 0xbb, 0xbf, ...enc(' \r\n\t<Finvoice/>')]))).toBe(
      'finvoice',
    );
    expect(sniffInvoiceFormat(enc('<SOAP-ENV:Envelope>'))).toBe('finvoice');
    expect(sniffInvoiceFormat(new Uint8Array([0xff, 0xfe, 0x3c, 0x00, 0x3f, 0x00]))).toBe('finvoice');
    expect(sniffInvoiceFormat(enc('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffInvoiceFormat(enc(`${'x'.repeat(500)}%PDF-1.4`))).toBe('pdf');
    expect(sniffInvoiceFormat(enc(`${'x'.repeat(1100)}%PDF-1.4`))).toBeNull();
    expect(sniffInvoiceFormat(enc('MZ\x90\x00'))).toBeNull();
    expect(sniffInvoiceFormat(new Uint8Array(0))).toBeNull();
    expect(sniffInvoiceFormat(enc('Laskun numero 123'))).toBeNull();
  });

  it('gives peppol for a root in a UBL namespace (default or any prefix, after comments and a DOCTYPE) and an SBDH frame', () => {
    const invoice = `<Invoice xmlns="${UBL}Invoice-2" xmlns:cbc="${UBL}CommonBasicComponents-2">`;
    expect(sniffInvoiceFormat(enc(`<?xml version="1.0" encoding="UTF-8"?>\n${invoice}`))).toBe('peppol');
    expect(sniffInvoiceFormat(enc(`<ubl:CreditNote xmlns:ubl="${UBL}CreditNote-2">`))).toBe('peppol');
    expect(
      sniffInvoiceFormat(
        enc(`<!-- from the access point -->\n<?pi x?>\n<ns4:Invoice xmlns:ns4="${UBL}Invoice-2">`),
      ),
    ).toBe('peppol');
    // a UBL Order is the Peppol reader's to refuse, with its own reason
    expect(sniffInvoiceFormat(enc(`<Order xmlns="${UBL}Order-2"/>`))).toBe('peppol');
    // a DOCTYPE with an internal subset is skipped to find the root (the reader then refuses it)
    expect(
      sniffInvoiceFormat(
        enc(`<!DOCTYPE Invoice [<!ENTITY e "x">]><Invoice xmlns="${UBL}Invoice-2">&e;</Invoice>`),
      ),
    ).toBe('peppol');
    expect(
      sniffInvoiceFormat(
        enc(
          '<StandardBusinessDocument xmlns="http://www.unece.org/cefact/namespaces/StandardBusinessDocumentHeader">',
        ),
      ),
    ).toBe('peppol');
    // other XML stays the Finvoice reader's, and so does a root that does not end in the first 8 KiB
    expect(sniffInvoiceFormat(enc('<TEAPPSXML/>'))).toBe('finvoice');
    expect(sniffInvoiceFormat(enc('<Invoice/>'))).toBe('finvoice'); // no namespace: not UBL
    expect(sniffInvoiceFormat(enc(`<!--${'x'.repeat(9000)}--><Invoice xmlns="${UBL}Invoice-2"/>`))).toBe(
      'finvoice',
    );
  });

  it("judges a streamed upload's first chunk as it judges the whole file", () => {
    for (const creditNote of [false, true]) {
      const { xml } = generatePeppol({
        operator: 'telia',
        subscriptions: 2,
        seed: 4,
        creditNote,
        frame: true,
      });
      expect(sniffInvoiceFormat(xml)).toBe('peppol');
      expect(sniffInvoiceFormat(xml.subarray(0, 8192))).toBe('peppol');
    }
  });
});

describe('parseInvoiceFile reads every format through one entry', () => {
  it('reads a Peppol file, a Finvoice file and a PDF, saying which', async () => {
    const peppol = generatePeppol({ operator: 'elisa', subscriptions: 3, seed: 5 });
    expect(await parseInvoiceFile(peppol.xml)).toEqual({ format: 'peppol', invoice: peppol.expected });
    const finvoice = generateFinvoice({ operator: 'dna', subscriptions: 3, seed: 5, envelope: true });
    expect(await parseInvoiceFile(finvoice.xml)).toEqual({ format: 'finvoice', invoice: finvoice.expected });
    const pdf = await generateInvoice({ operator: 'elisa', subscriptions: 2, seed: 5 });
    expect(await parseInvoiceFile(pdf.pdf)).toEqual({ format: 'pdf', invoice: pdf.expected });
  });

  it('refuses what is none of them with unknown_file_type', async () => {
    for (const bytes of [new Uint8Array(0), enc('Laskun numero 123\n')]) {
      const err = await parseInvoiceFile(bytes).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(InvoiceError);
      expect((err as InvoiceError).code).toBe('unknown_file_type');
    }
  });
});
