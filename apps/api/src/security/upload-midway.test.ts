import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInvoice } from '@kulu/invoices';
import { invoices } from '../db/schema/index.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { multipart, settled, uploadFiles } from '../test/uploads.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  token = await t.login(DEMO.companyAdmin);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const invoiceCount = async () => {
  const [{ n }] = await t.deps.database.db.select({ n: sql<number>`count(*)::int` }).from(invoices);
  return n;
};

describe('a multipart upload that goes wrong midway', () => {
  it('answers per file, never 5xx, when a later file of the request cannot be stored as named', async () => {
    const a = await generateInvoice({ operator: 'elisa', subscriptions: 2, seed: 701, buyer: BUYER.pohjola });
    const b = await generateInvoice({ operator: 'telia', subscriptions: 2, seed: 702, buyer: BUYER.pohjola });
    // A NUL (and other control characters) in the second file's name: text columns refuse NUL.
    const res = await uploadFiles(t, token, [
      { name: 'first.pdf', data: a.pdf },
      { name: 'sec\u0000ond\u0007.pdf', data: b.pdf },
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ accepted: 2, refused: 0 });
    expect(body.results.map((r: { fileName: string }) => r.fileName)).toEqual(['first.pdf', 'second.pdf']);
    for (const r of body.results) {
      expect(await settled(t, token, r.invoiceId)).toMatchObject({ uploadState: 'uploaded' });
    }
    const [stored] = await t.deps.database.db
      .select({ fileName: invoices.fileName })
      .from(invoices)
      .where(eq(invoices.id, body.results[1].invoiceId));
    expect(stored.fileName).toBe('second.pdf');
  }, 90_000);

  it('stores nothing when the multipart body breaks off midway (all or nothing)', async () => {
    const a = await generateInvoice({ operator: 'elisa', subscriptions: 2, seed: 703, buyer: BUYER.pohjola });
    const b = await generateInvoice({ operator: 'telia', subscriptions: 2, seed: 704, buyer: BUYER.pohjola });
    const whole = multipart([
      { name: 'one.pdf', data: a.pdf },
      { name: 'two.pdf', data: b.pdf },
    ]);
    // The first file is complete; the body ends inside the second one, without a closing boundary.
    const cut = whole.payload.subarray(0, whole.payload.length - Math.floor(b.pdf.length / 2));
    const before = await invoiceCount();
    const res = await t.inject({
      method: 'POST',
      url: '/api/invoices',
      token,
      headers: whole.headers,
      payload: cut,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation', fields: { files: 'invalid' } });
    expect(await invoiceCount()).toBe(before);
  });
});
