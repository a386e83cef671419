import { describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES } from '@kulu/shared';
import {
  applyResults,
  checkFile,
  filePercents,
  isSendable,
  nextBatch,
  refuseBatch,
  summarize,
  type UploadItem,
} from './upload-files';

const file = (name: string, size = 1000, type = 'application/pdf') => ({ name, size, type }) as File;
const item = (uid: string, extra: Partial<UploadItem> = {}): UploadItem => ({
  uid,
  file: file(`${uid}.pdf`),
  status: 'pending',
  percent: 0,
  ...extra,
});

const bytes = (text: string) => new TextEncoder().encode(text);

describe('checkFile', () => {
  it('takes PDFs and Finvoice e-invoices up to 20 MB, whatever their name or type', () => {
    expect(checkFile(file('lasku.pdf'), bytes('%PDF-1.7\n'))).toBeNull();
    expect(checkFile(file('LASKU', 10, ''), bytes('\n%PDF-1.4'))).toBeNull();
    expect(checkFile(file('max.pdf', INVOICE_MAX_BYTES), bytes('%PDF-1.7'))).toBeNull();
    expect(checkFile(file('lasku.xml', 10, 'text/xml'), bytes('<?xml version="1.0"?><Finvoice>'))).toBeNull();
    expect(checkFile(file('lasku.txt', 10, 'text/plain'), bytes('\uFEFF <SOAP-ENV:Envelope>'))).toBeNull();
    // Before its first bytes are read, only the size is judged.
    expect(checkFile(file('any.bin', 10, ''))).toBeNull();
  });
  it('refuses other content, empty and large files with the API codes', () => {
    expect(checkFile(file('notes.txt', 10, 'text/plain'), bytes('not an invoice'))).toBe('invoiceNotPdf');
    expect(checkFile(file('fake.pdf', 10, 'application/pdf'), bytes('\x89PNG'))).toBe('invoiceNotPdf');
    expect(checkFile(file('setup.exe', 10, ''), bytes('MZ\x90'))).toBe('invoiceNotPdf');
    expect(checkFile(file('less.xml', 10, ''), bytes('< not a tag'))).toBe('invoiceNotPdf');
    expect(checkFile(file('empty.pdf', 0))).toBe('invoiceNotPdf');
    expect(checkFile(file('big.pdf', INVOICE_MAX_BYTES + 1), bytes('%PDF-1.7'))).toBe('invoiceTooLarge');
  });
});

describe('filePercents', () => {
  it('splits the bytes sent over the files in order', () => {
    expect(filePercents([100, 300], 0, 400)).toEqual([0, 0]);
    expect(filePercents([100, 300], 50, 400)).toEqual([50, 0]);
    expect(filePercents([100, 300], 250, 400)).toEqual([100, 50]);
    expect(filePercents([100, 300], 400, 400)).toEqual([100, 100]);
  });
  it('scales the multipart overhead away and copes with nothing to send', () => {
    expect(filePercents([100, 100], 220, 440)).toEqual([100, 0]);
    expect(filePercents([100], 999, 440)).toEqual([100]);
    expect(filePercents([0, 0], 0, 0)).toEqual([0, 0]);
  });
});

describe('batches and answers', () => {
  it('sends pending files and retriable refusals, not checked-out or accepted ones', () => {
    const items = [
      item('a'),
      item('b', { status: 'refused', code: 'invoiceNotPdf' }),
      item('c', { status: 'refused', code: 'previousParseRunning' }),
      item('d', { status: 'accepted', invoiceId: 4 }),
    ];
    expect(items.map(isSendable)).toEqual([true, false, true, false]);
    expect(nextBatch(items).map((i) => i.uid)).toEqual(['a', 'c']);
    const many = Array.from({ length: 25 }, (_, k) => item(`f${k}`));
    expect(nextBatch(many)).toHaveLength(20);
  });
  it('puts the per-file results on the batch in order', () => {
    const items = [item('a'), item('b'), item('c')];
    const out = applyResults(
      items,
      ['a', 'b'],
      [
        { fileName: 'a.pdf', status: 'accepted', invoiceId: 7, code: 'invoiceUploaded' },
        {
          fileName: 'b.pdf',
          status: 'refused',
          code: 'invoiceAlreadyParsed',
          message: 'Invoice already parsed',
        },
      ],
    );
    expect(out[0]).toMatchObject({ status: 'accepted', invoiceId: 7, percent: 100 });
    expect(out[1]).toMatchObject({ status: 'refused', code: 'invoiceAlreadyParsed', percent: 0 });
    expect(out[2]).toBe(items[2]);
    expect(summarize(out)).toEqual({ uploaded: 1, failed: 1, pending: 1 });
  });
  it('refuses a whole batch when the request failed', () => {
    const out = refuseBatch([item('a'), item('b')], ['b'], 'network');
    expect(out.map((i) => i.status)).toEqual(['pending', 'refused']);
    expect(out[1].code).toBe('network');
    expect(isSendable(out[1])).toBe(true);
  });
});
