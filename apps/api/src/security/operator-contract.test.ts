import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema/index.js';
import { importFootprint } from '../modules/invoices/invoices.service.js';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { forPohjola } from '../test/generated.js';
import { settled, uploadFiles } from '../test/uploads.js';

let t: TestApp;
const tok: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
  for (const k of ['companyAdmin', 'admin'] as const) tok[k] = await t.login(DEMO[k]);
  // The company admin reads in Finnish.
  await t.deps.database.db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
  tok.companyAdminFi = await t.login(DEMO.companyAdmin);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('operator contracts', () => {
  it('refuses an invoice of an operator the client has no contract with, and imports nothing of it', async () => {
    // Pohjola Rakennus has contracts with Elisa and Telia only.
    const dna = await forPohjola({ operator: 'dna', subscriptions: 3, seed: 801 });
    const before = await importFootprint(t.deps.database.db);
    const res = await uploadFiles(t, tok.companyAdmin, [{ name: 'dna.pdf', data: dna.pdf }]);
    expect(res.statusCode).toBe(200);
    const id: number = res.json().results[0].invoiceId;
    expect(await settled(t, tok.companyAdmin, id)).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceOperatorNoContract',
      errorDetail: 'the client has no operator contract with DNA',
      lineCount: 0,
      invoiceNumber: null,
    });
    expect(await importFootprint(t.deps.database.db)).toEqual(before);
    // The reason in the reader's language.
    const fi = await t.inject({ method: 'GET', url: `/api/invoices/${id}`, token: tok.companyAdminFi });
    expect(fi.json().errorMessage).toBe('Asiakkaalla ei ole sopimusta tämän laskun operaattorin kanssa');
    const en = await t.inject({ method: 'GET', url: `/api/invoices/${id}`, token: tok.admin });
    expect(en.json().errorMessage).toBe('The client has no contract with the operator of this invoice');
  }, 90_000);

  it('imports an invoice of an operator the client has a contract with', async () => {
    const telia = await forPohjola({ operator: 'telia', subscriptions: 3, seed: 802 });
    const res = await uploadFiles(t, tok.companyAdmin, [{ name: 'telia.pdf', data: telia.pdf }]);
    expect(await settled(t, tok.companyAdmin, res.json().results[0].invoiceId)).toMatchObject({
      uploadState: 'uploaded',
      operatorName: 'Telia',
    });
  }, 90_000);
});
