import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.js';

/**
 * Issue 37 item 21: a web app served from another origin (built with VITE_API_BASE) calls the API
 * with its bearer token; CORS_ORIGINS names the origins whose pages may, and no other.
 */
const APP_ORIGIN = 'https://app.kulu.test';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ CORS_ORIGINS: `${APP_ORIGIN}, https://other.kulu.test` });
});
afterAll(() => t?.close());

describe('the API called from another origin', () => {
  it('answers the preflight of an allowed origin with the methods and headers its calls use', async () => {
    const res = await t.inject({
      method: 'OPTIONS',
      url: '/api/dashboard/cost-usage',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']).toMatch(/authorization/i);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets an allowed origin sign in and read with the bearer token, the download name readable', async () => {
    const login = await t.inject({
      method: 'POST',
      url: '/api/Token',
      headers: { origin: APP_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=password&username=admin%40kulu.fi&password=Kulu!2026',
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    const token = login.json<{ access_token: string }>().access_token;
    const res = await t.inject({
      method: 'GET',
      url: '/api/clients/options',
      headers: { origin: APP_ORIGIN, authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(APP_ORIGIN);
    expect(res.headers['access-control-expose-headers']).toBe('Content-Disposition');
    expect(res.headers.vary).toMatch(/origin/i);
  });

  it('gives a page of any other origin no CORS header (its browser keeps the answer from it)', async () => {
    const res = await t.inject({
      method: 'OPTIONS',
      url: '/api/dashboard/cost-usage',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'GET' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.statusCode).not.toBe(204);
  });
});

describe('CORS_ORIGINS', () => {
  it('refuses to start with an address that is not an origin', async () => {
    await expect(createTestApp({ CORS_ORIGINS: 'https://app.kulu.test/path' })).rejects.toThrow(
      /CORS_ORIGINS/,
    );
  });
});
