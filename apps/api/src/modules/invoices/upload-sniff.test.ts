import { describe, expect, it } from 'vitest';
import { sniffInvoiceFormat } from '@kulu/invoices/file';
import { invoiceMediaType } from './invoices.service.js';

// The upload judges a file with the parse child's own sniffer (issue 38: one sniffer), so a file the
// child would read with a reason of its own is never refused at the door as "not a PDF".
describe("the upload's judgement of a file", () => {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('<?xml version="1.0" encoding="UTF-16"?><Finvoice Version="3.0"/>', 'utf16le'),
  ]);
  const ubl = Buffer.from(
    '<?xml version="1.0"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
  );

  it('is the parse child’s: an UTF-16 e-invoice and a Peppol invoice are XML, a text file nothing', () => {
    expect(invoiceMediaType(utf16)).toBe('application/xml');
    expect(sniffInvoiceFormat(utf16)).toBe('finvoice');
    expect(invoiceMediaType(ubl)).toBe('application/xml');
    expect(sniffInvoiceFormat(ubl)).toBe('peppol');
    expect(invoiceMediaType(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(invoiceMediaType(Buffer.from('Lasku 2025, ei PDF'))).toBeNull();
  });
});
