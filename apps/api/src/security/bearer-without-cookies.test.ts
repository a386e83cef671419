import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInvoice } from '@kulu/invoices';
import { BUYER, createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../test/helpers.js';

/**
 * An integration as it is written in practice: plain fetch against a listening server, no cookie
 * jar, no XSRF header; only the bearer token of POST /api/Token.
 */
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function token(): Promise<string> {
  const res = await fetch(`${base}/api/Token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      username: DEMO.companyAdmin,
      password: DEMO_PASSWORD,
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token: string };
  return body.access_token;
}

describe('API clients without cookies', () => {
  it('gets a token from POST /api/Token with a form and no cookies', async () => {
    expect(await token()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('changes a profile setting with only the bearer header', async () => {
    const bearer = await token();
    const res = await fetch(`${base}/api/profile/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ applicationThemeID: 2 }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { applicationThemeID: number }).applicationThemeID).toBe(2);
  });

  it('uploads an invoice PDF (multipart) with only the bearer header', async () => {
    const bearer = await token();
    const { pdf } = await generateInvoice({
      operator: 'elisa',
      buyer: BUYER.pohjola,
      seed: 21,
      subscriptions: 2,
      invoiceDate: '2026-09-05',
      pageSize: 'A4',
      font: 'Helvetica',
    });
    const form = new FormData();
    form.append('files', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'elisa.pdf');
    const res = await fetch(`${base}/api/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}` },
      body: form,
    });
    expect(res.status).toBeLessThan(300);
    const body = (await res.json()) as { results: Array<{ status: string }> };
    expect(body.results[0].status).toBe('accepted');
  });

  it('still refuses a cookie-carrying browser call without the XSRF header', async () => {
    const res = await fetch(`${base}/api/Account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: 'XSRF-TOKEN=abcdefghijklmnopqrstuvwxyz' },
      body: JSON.stringify({ email: DEMO.companyAdmin, password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(403);
  });
});
