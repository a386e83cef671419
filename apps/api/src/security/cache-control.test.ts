import { beforeAll, describe, expect, it } from 'vitest';
import { generateInvoice } from '@kulu/invoices';
import { useSignedIn } from '../test/fixtures.js';
import { BUYER, DEMO } from '../test/helpers.js';
import { uploadFiles } from '../test/uploads.js';

const companyAdmin = useSignedIn(DEMO.companyAdmin, {}, 60_000);
let invoiceId: number;

beforeAll(async () => {
  const { pdf } = await generateInvoice({
    operator: 'elisa',
    buyer: BUYER.pohjola,
    seed: 11,
    subscriptions: 2,
    invoiceDate: '2026-10-05',
    pageSize: 'A4',
    font: 'Helvetica',
  });
  const res = await uploadFiles(companyAdmin.t, companyAdmin.token, [{ name: 'elisa.pdf', data: pdf }]);
  expect(res.statusCode).toBeLessThan(300);
  invoiceId = res.json().results[0].invoiceId;
  expect(invoiceId).toBeGreaterThan(0);
}, 60_000);

describe('Cache-Control on per-customer answers', () => {
  it('marks the invoice PDF download no-store', async () => {
    const res = await companyAdmin.t.inject({
      method: 'GET',
      url: `/api/invoices/${invoiceId}/file`,
      token: companyAdmin.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it.each(['/api/invoices', '/api/Account/GetClientInfo', '/api/profile'])(
    'marks %s no-store',
    async (url) => {
      const res = await companyAdmin.t.inject({ method: 'GET', url, token: companyAdmin.token });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    },
  );

  it('marks the token answer and error answers no-store', async () => {
    const login = await companyAdmin.t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: DEMO.companyAdmin, password: 'Wrong-Pass-1!' },
    });
    expect(login.headers['cache-control']).toBe('no-store');
    const missing = await companyAdmin.t.inject({
      method: 'GET',
      url: '/api/invoices/999999',
      token: companyAdmin.token,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });
});
