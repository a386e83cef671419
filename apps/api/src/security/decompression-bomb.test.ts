// This file must not import @kulu/invoices (or anything that loads a PDF library): it checks that
// the API process never loads one. Invoice PDFs are generated in a separate process.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bombPdf } from '@kulu/invoices/pdf/bomb-pdf';
import { lastParseStats } from '../modules/invoices/pipeline/parse-runner.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { settled, uploadFiles, uploadGenerated } from '../test/uploads.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ PARSE_MAX_MEMORY_MB: '512' }, { jobs: true });
  token = await t.login(DEMO.companyAdmin);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('decompression bomb', () => {
  it('fails a 2 MB PDF that inflates to 2 GB with a clear reason, using little memory, and goes on', async () => {
    // As in the issue: one content stream of 2 GB of zeros; and one whose font program is the bomb.
    const content = await bombPdf(2048);
    const font = await bombPdf(2048, { in: 'font' });
    expect(content.length).toBeLessThan(3 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    const res = await uploadFiles(t, token, [
      { name: 'bomb.pdf', data: content },
      { name: 'font-bomb.pdf', data: font },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 2 });
    for (const r of res.json().results) {
      expect(await settled(t, token, r.invoiceId)).toMatchObject({
        uploadState: 'failed',
        errorCode: 'invoiceExpandsTooMuch',
        errorMessage: 'The file expands beyond the memory allowed for reading one invoice',
        errorDetail: 'the file expands beyond 256 MB',
      });
      // Refused by the inflate pre-check in the child, before the PDF library allocated anything.
      expect(lastParseStats().peakRssMb).toBeLessThan(400);
    }
    // The API process itself never held the inflated data (2 GB per file); what it grows by is
    // the embedded database and the test's own allocations.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(1024 * 1024 * 1024);

    // The server carries on: the next invoice of the client parses normally.
    const next = { operator: 'elisa', subscriptions: 4, seed: 77, buyer: BUYER.pohjola };
    expect(await uploadGenerated(t, token, next)).toMatchObject({
      uploadState: 'uploaded',
      operatorName: 'Elisa',
    });
  }, 120_000);

  it('never loads a PDF library into the API process, so JSON.stringify stays native', async () => {
    // After the app was built and invoices were parsed (the test above): the parse ran elsewhere.
    expect(JSON.stringify.toString()).toContain('[native code]');
    const g = globalThis as Record<string, unknown>;
    expect(g.pdfjsLib).toBeUndefined();
    expect(g.pdfjsWorker).toBeUndefined();
  });

  it('has no runtime import of the invoice package on the parse path of the API process', () => {
    // Type-only imports are erased; the child (parse-child.ts) is the one place that loads it.
    // Benches (*.bench.ts, run by `npm run bench` in their own process) are not the API process.
    const root = fileURLToPath(new URL('..', import.meta.url));
    const sources = ['jobs', 'modules/invoices', 'modules/invoices/pipeline']
      .flatMap((d) => fs.readdirSync(path.join(root, d)).map((f) => path.join(d, f)))
      .filter((f) => f.endsWith('.ts') && !/(\.test|\.bench|-test-helpers|parse-child)\.ts$/.test(f));
    expect(sources).toContain(path.join('modules/invoices/pipeline', 'parse-runner.ts'));
    const offenders = sources.filter((f) => {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      // An import statement starts a line (the word in a comment is no import).
      return /^import\s+(?!type\b)[^;]*from\s+'(@kulu\/invoices|pdfjs-dist[^']*|mupdf)'|import\('(@kulu\/invoices|pdfjs-dist|mupdf)/m.test(
        text,
      );
    });
    expect(offenders).toEqual([]);
  });
});
