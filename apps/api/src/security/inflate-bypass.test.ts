// Issue 23, finding 6: the PDF inflate pre-check could be bypassed. Each file below hides a 1 GiB
// bomb from the old check; uploaded through the API, each must be refused by the pre-check in the
// parse child before MuPDF reads it, the child staying far below its 512 MB cap. Like
// decompression-bomb.test.ts, this file loads no PDF library into the test (API) process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastParseStats } from '../modules/invoices/pipeline/parse-runner.js';
import { HIDDEN_BOMBS, manyStreamsPdf } from '@kulu/invoices/pdf/hostile-pdf';
import { BUYER, createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { settled, uploadFiles, uploadGenerated } from '../test/uploads.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  // A generous time limit: this test is about memory, and a loaded CI machine must not turn a
  // refusal into a timeout (the pre-check decodes 256 MB before it refuses).
  t = await createTestApp({ PARSE_MAX_MEMORY_MB: '512', PARSE_TIMEOUT_BASE_SECONDS: '60' }, { jobs: true });
  token = await t.login(DEMO.companyAdmin);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const GIB = 1024;
/** The hidden bombs of the pre-check's own test, at 1 GiB (of the encryptions, AES-128 only). */
const bombs: [string, () => Promise<Buffer> | Buffer][] = [
  ...HIDDEN_BOMBS.filter(([name]) => !/rc4|aes-256|EarlyChange/.test(name)).map(
    ([name, make]): [string, () => Promise<Buffer> | Buffer] => [name, () => make(GIB)],
  ),
  ['160,000 tiny streams', () => manyStreamsPdf(160_000)],
];

describe('inflate pre-check bypasses (issue 23, finding 6)', () => {
  it.each(bombs)(
    'refuses a 1 GiB bomb behind %s before reading it, using little memory',
    async (name, make) => {
      const data = await make();
      expect(data.length).toBeLessThan(20 * 1024 * 1024);
      const res = await uploadFiles(t, token, [{ name: `${name.replace(/\W+/g, '-')}.pdf`, data }]);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ accepted: 1 });
      expect(await settled(t, token, res.json().results[0].invoiceId, 120_000)).toMatchObject({
        uploadState: 'failed',
        errorCode: 'invoiceExpandsTooMuch',
        errorMessage: 'The file expands beyond the memory allowed for reading one invoice',
        errorDetail: 'the file expands beyond 256 MB',
      });
      // The child: ~150 MB with MuPDF loaded, the file, and the check's own few megabytes.
      expect(lastParseStats().peakRssMb).toBeLessThan(300);
    },
    180_000,
  );

  it('still reads an invoice after the bombs', async () => {
    const ok = { operator: 'telia', subscriptions: 6, seed: 61, buyer: BUYER.pohjola };
    expect(await uploadGenerated(t, token, ok)).toMatchObject({
      uploadState: 'uploaded',
      operatorName: 'Telia',
    });
  }, 120_000);
});
