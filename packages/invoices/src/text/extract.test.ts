import { describe, expect, it } from 'vitest';
import { PdfReadError } from '../errors.js';
import { generateInvoice } from '../generator/generate.js';
import { fixture, OPERATOR_IDS } from '../test-helpers.js';
import { extractText } from './extract.js';
import { hasDirectWalk, openPdf, readPage } from './mupdf-pages.mjs';

describe('text extraction with MuPDF', () => {
  it('reads a long invoice on worker threads to exactly the text and positions of one thread', async () => {
    const { pdf, pages } = await generateInvoice({ operator: 'telia', subscriptions: 250, seed: 7 });
    expect(pages).toBeGreaterThanOrEqual(32); // below that, everything is read on the calling thread
    const single = await extractText(pdf, { threads: 1 });
    const parallel = await extractText(pdf, { threads: 3 });
    expect(parallel.pages.map((p) => p.number)).toEqual(single.pages.map((_, i) => i + 1));
    expect(parallel).toEqual(single);
  }, 60_000);

  it.each(OPERATOR_IDS)(
    '%s sample: the direct line walk gives the text and positions of MuPDF’s own JSON (to 1/100 pt)',
    (id) => {
      expect(hasDirectWalk).toBe(true);
      const doc = openPdf(fixture(`${id}-sample.pdf`));
      try {
        for (let i = 0; i < doc.countPages(); i++) {
          const direct = readPage(doc, i, 'direct');
          const json = readPage(doc, i, 'json');
          expect(direct.strs).toEqual(json.strs);
          expect(direct.strs.length).toBeGreaterThan(10);
          direct.nums.forEach((value, k) =>
            expect(Math.abs(value - json.nums[k])).toBeLessThanOrEqual(0.011),
          );
        }
      } finally {
        doc.destroy();
      }
    },
  );

  it('refuses a PDF with more pages than maxPages', async () => {
    const err = await extractText(fixture('elisa-sample.pdf'), { maxPages: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PdfReadError);
    expect((err as PdfReadError).code).toBe('unreadable_pdf');
    expect((err as PdfReadError).message).toBe('the PDF has 2 pages, more than the 1 allowed');
  });
});
