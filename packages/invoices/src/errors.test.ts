import { describe, expect, it } from 'vitest';
import { InvoiceError, NotAValidInvoiceError, PdfReadError, ReconciliationError } from './errors.js';
import { TextTooLongError } from './limits.js';
import { generateImageOnlyPdf, generateInvoice, generatePlainPdf } from './generator/generate.js';
import { parseDocument, parseInvoice } from './registry.js';
import { extractText } from './text/extract.js';
import { fixture } from './test-helpers.js';
import type { TextDocument, TextLine } from './types.js';

async function failure(pdf: Uint8Array): Promise<InvoiceError> {
  try {
    await parseInvoice(pdf);
  } catch (err) {
    expect(err).toBeInstanceOf(InvoiceError);
    return err as InvoiceError;
  }
  throw new Error('expected the parse to fail');
}

describe('broken and foreign inputs', () => {
  it('refuses a PDF that is not an invoice', async () => {
    const pdf = await generatePlainPdf([
      'Kokouspöytäkirja 5.11.2026',
      'Läsnä: Elisa Oyj:n edustaja, Matti Meikäläinen. Laskun numero ei ole tiedossa.',
      'Yhteensä 12,30',
    ]);
    const err = await failure(pdf);
    expect(err).toBeInstanceOf(NotAValidInvoiceError);
    expect(err.code).toBe('not_a_valid_invoice');
    expect(err.message).toMatch(/^not a valid invoice/);
  });

  it('refuses garbage bytes, an empty file and a renamed .exe as not a PDF', async () => {
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919 + 13) % 256);
    const exe = new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, ...new Uint8Array(500)]);
    for (const bytes of [garbage, new Uint8Array(0), exe]) {
      const err = await failure(bytes);
      expect(err).toBeInstanceOf(PdfReadError);
      expect(err.code).toBe('not_a_pdf');
      expect(err.message).toMatch(/^not a PDF/);
    }
  });

  it('gives a clear error for a truncated PDF and for a PDF header followed by garbage', async () => {
    const sample = fixture('elisa-sample.pdf');
    for (const bytes of [sample.slice(0, 300), new TextEncoder().encode('%PDF-1.7\n\u0000\u0001garbage')]) {
      const err = await failure(bytes);
      expect(['unreadable_pdf', 'not_a_valid_invoice']).toContain(err.code);
    }
  });

  it('calls a truncated invoice damaged (unreadable), not "not an invoice", though MuPDF repairs what is left', async () => {
    const { pdf } = await generateInvoice({ operator: 'elisa', subscriptions: 40, seed: 3 });
    for (const fraction of [3, 2]) {
      const err = await failure(pdf.subarray(0, Math.floor(pdf.length / fraction)));
      expect(err).toBeInstanceOf(PdfReadError);
      expect(err.code).toBe('unreadable_pdf');
      expect(err.message).toMatch(/^the PDF is damaged \(truncated or corrupt\)/);
    }
  });

  it('refuses an encrypted PDF', async () => {
    const err = await failure(await generatePlainPdf(['salainen'], { encryptWithPassword: 'secret' }));
    expect(err.code).toBe('encrypted_pdf');
    expect(err.message).toMatch(/encrypted/);
  });

  it('refuses an image-only PDF as not a valid invoice', async () => {
    const err = await failure(await generateImageOnlyPdf());
    expect(err).toBeInstanceOf(NotAValidInvoiceError);
    expect(err.message).toMatch(/no text/);
  });
});

/** Replaces the text of the first cell equal to `from` on a line matching `where`. */
function tamper(doc: TextDocument, where: RegExp, from: string, to: string): TextDocument {
  const copy = structuredClone(doc);
  const line = copy.pages.flatMap((p) => p.lines).find((l: TextLine) => where.test(l.text));
  if (!line) throw new Error(`no line ${where}`);
  const cell = line.cells.find((c) => c.text === from);
  if (!cell) throw new Error(`no cell ${from}`);
  cell.text = to;
  line.text = line.cells.map((c) => c.text).join(' ');
  return copy;
}

describe('reconciliation', () => {
  it('fails with the difference when the lines do not add up to the invoice total', async () => {
    const doc = await extractText(fixture('elisa-sample.pdf'));
    const bad = tamper(doc, /^Yhteensä ilman arvonlisäveroa/, '197,27', '197,37');
    expect(() => parseDocument(bad)).toThrow(ReconciliationError);
    expect(() => parseDocument(bad)).toThrow(
      'the invoice lines sum to 197.27 EUR but the invoice total excluding VAT is 197.37 EUR: off by 0.10 EUR',
    );
    try {
      parseDocument(bad);
    } catch (err) {
      expect((err as ReconciliationError).differenceCents).toBe(10);
    }
  });

  it('fails when a line amount does not match its subscription total', async () => {
    const doc = await extractText(fixture('telia-sample.pdf'));
    const bad = tamper(doc, /^Roaming puhelut muualla .*54,69$/, '54,69', '54,96');
    expect(() => parseDocument(bad)).toThrow(
      'subscription +358503776416: its lines sum to 129.86 EUR but its printed total is 129.59 EUR (off by -0.27 EUR)',
    );
  });

  it('fails when VAT is not the rate of the total', async () => {
    const doc = await extractText(fixture('dna-sample.pdf'));
    const bad = tamper(doc, /^Arvonlisävero/, '49,82', '49,83');
    expect(() => parseDocument(bad)).toThrow(
      /VAT 25.5 % of 195.37 EUR is 49.82 EUR but the invoice says 49.83 EUR \(off by 0.01 EUR\)/,
    );
  });

  it('fails on a cost center whose subscriptions do not add up (Telia)', async () => {
    const doc = await extractText(fixture('telia-sample.pdf'));
    const bad = tamper(doc, /^Kustannuspaikka yhteensä 142,49$/, '142,49', '142,50');
    expect(() => parseDocument(bad)).toThrow(/cost center 1001: .*\(off by 0.01 EUR\)/);
  });
});

describe('texts of a PDF invoice are bounded', () => {
  it('refuses a user name longer than a name may be, naming the subscription and the limit', async () => {
    const doc = await extractText(fixture('elisa-sample.pdf'));
    const long = 'Kaisa Meikäläinen '.repeat(20).trim();
    const bad = tamper(doc, /^Liittymä 040 231 1094/, 'Kaisa Meikäläinen', long);
    expect(() => parseDocument(bad)).toThrow(TextTooLongError);
    expect(() => parseDocument(bad)).toThrow(
      `the user name of subscription +358402311094 is ${long.length} characters long (at most 200)`,
    );
    // the same invoice as printed is read
    expect(parseDocument(doc).subscriptions[0].userName).toBe('Kaisa Meikäläinen');
  });
});
