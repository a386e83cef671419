import fs from 'node:fs';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateInvoice } from '../generator/generate.js';
import { bombPdf, onePage, pdfOf, streamObject, TEXT } from './bomb-pdf.js';
import { deflatedZeros, encryptedPdf, HIDDEN_BOMBS, manyStreamsPdf } from './hostile-pdf.js';
import { inflatedSize, OBJECT_OVERHEAD, STREAM_OVERHEAD } from './inflate-check.js';

const MB = 1024 * 1024;

describe('the inflate pre-check', () => {
  it.each(HIDDEN_BOMBS)(
    'refuses a bomb behind %s, having decoded no more than the limit',
    async (_, make) => {
      const pdf = await make(96);
      const res = await inflatedSize(pdf, 32 * MB);
      expect(res.within).toBe(false);
      expect(res.reason).toBeUndefined();
      // It stops at the limit: a stream is not decoded whole before counting.
      expect(res.bytes).toBeGreaterThan(32 * MB);
      expect(res.bytes).toBeLessThan(34 * MB);
    },
  );

  it.each(HIDDEN_BOMBS)('counts at least what a reader decodes behind %s', async (_, make) => {
    const res = await inflatedSize(await make(24), 1024 * MB);
    expect(res.within).toBe(true);
    expect(res.bytes).toBeGreaterThanOrEqual(24 * MB);
  });

  it('refuses 160,000 tiny streams by what a reader holds for each, before decoding them', async () => {
    const pdf = manyStreamsPdf(160_000);
    const res = await inflatedSize(pdf, 256 * MB);
    expect(res).toEqual({ within: false, bytes: expect.any(Number) });
    // Stopped while counting objects and streams: 15,000-odd of 16 KiB pass 256 MB.
    expect(res.bytes).toBeLessThan(256 * MB + STREAM_OVERHEAD + OBJECT_OVERHEAD + 1);
    expect((await inflatedSize(manyStreamsPdf(1_000), 256 * MB)).within).toBe(true);
  }, 30_000);

  it('passes the sample invoices and generated ones with room to spare', async () => {
    const dir = new URL('../../fixtures/', import.meta.url);
    const samples = fs.readdirSync(dir).filter((f) => f.endsWith('.pdf'));
    expect(samples.length).toBeGreaterThan(0);
    for (const f of samples) {
      expect(await inflatedSize(fs.readFileSync(new URL(f, dir)), 256 * MB)).toMatchObject({ within: true });
    }
    for (const [operator, subscriptions] of [
      ['elisa', 600],
      ['telia', 200],
      ['dna', 40],
    ] as const) {
      const { pdf } = await generateInvoice({ operator, subscriptions, seed: 11 });
      const res = await inflatedSize(pdf, 256 * MB);
      expect(res.within).toBe(true);
      expect(res.bytes).toBeLessThan(16 * MB);
    }
    const encrypted = encryptedPdf(
      { ...onePage(), 7: streamObject('/Filter /FlateDecode', zlib.deflateSync(TEXT)) },
      'aes-128',
    );
    expect((await inflatedSize(encrypted, 256 * MB)).within).toBe(true);
  }, 60_000);

  it('finds an object whose header a comment splits, and a stream hidden inside another stream', async () => {
    const zeros = await deflatedZeros(64);
    const split = pdfOf({ ...onePage(), 7: streamObject('/Filter 9 0 R', zeros) })
      .toString('latin1')
      .replace('1 0 obj', '9 % comment\n0 % more\nobj [/FlateDecode] endobj\n1 0 obj');
    expect(await inflatedSize(Buffer.from(split, 'latin1'), 32 * MB)).toMatchObject({ within: false });
    // Object 12 lies inside the unfiltered data of object 8: a reader reaches it through the xref.
    const inner = Buffer.concat(
      [
        '12 0 obj\n',
        '<< /Filter /FlateDecode /Length ' + zeros.length + ' >>\nstream\n',
        zeros,
        '\nendstream\nendobj\n',
      ].map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)),
    );
    const nested = pdfOf({
      ...onePage(),
      7: streamObject('/Filter /FlateDecode', zlib.deflateSync(TEXT)),
      8: streamObject('', inner),
    });
    expect(await inflatedSize(nested, 32 * MB)).toMatchObject({ within: false });
  });

  it('refuses what it cannot follow, saying why', async () => {
    const text = zlib.deflateSync(TEXT);
    const missing = pdfOf({ ...onePage(), 7: streamObject('/Filter 12 0 R', text) });
    expect(await inflatedSize(missing, 256 * MB)).toMatchObject({
      within: false,
      reason: "a stream's /Filter refers to an object that is not in the file",
    });
    const missingLength = pdfOf({ ...onePage(), 7: streamObject('/Filter /FlateDecode', text, '12 0 R') });
    expect(await inflatedSize(missingLength, 256 * MB)).toMatchObject({
      within: false,
      reason: "a stream's /Length refers to an object that is not in the file",
    });
    const orphan = Buffer.concat([
      pdfOf({ ...onePage(), 7: streamObject('/Filter /FlateDecode', text) }),
      Buffer.from('<< /Filter /FlateDecode >>\nstream\n', 'latin1'),
      text,
      Buffer.from('\nendstream\n', 'latin1'),
    ]);
    expect(await inflatedSize(orphan, 256 * MB)).toMatchObject({
      within: false,
      reason: 'a stream follows a dictionary that belongs to no readable object',
    });
    const long = pdfOf({ ...onePage(), 7: streamObject(`/Filter [${'/AHx '.repeat(33)}]`, text) });
    expect(await inflatedSize(long, 256 * MB)).toMatchObject({
      within: false,
      reason: 'more than 32 filters on one stream',
    });
  });

  it('does not decrypt a file the empty password does not open, as a reader cannot either', async () => {
    const pdf = encryptedPdf(
      { ...onePage(), 7: streamObject('/Filter /FlateDecode', await deflatedZeros(64)) },
      'rc4',
      'secret',
    );
    expect(await inflatedSize(pdf, 32 * MB)).toMatchObject({ within: true });
  });

  it('still refuses the decompression bombs of issue 23 at the limit', async () => {
    for (const bomb of [await bombPdf(2048), await bombPdf(2048, { in: 'font' })]) {
      const res = await inflatedSize(bomb, 256 * MB);
      expect(res.within).toBe(false);
      expect(res.bytes).toBeLessThan(258 * MB);
    }
  }, 30_000);
});
