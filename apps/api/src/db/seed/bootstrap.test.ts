import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('bootstrap', () => {
  it('creates the first provider admin from ADMIN_EMAIL and ADMIN_PASSWORD without demo data', async () => {
    t = await createTestApp({
      DEMO_DATA: 'false',
      ADMIN_EMAIL: 'paakayttaja@yritys.fi',
      ADMIN_PASSWORD: 'Vahva!Salasana1',
    });
    const token = await t.login('paakayttaja@yritys.fi', 'Vahva!Salasana1');
    const info = (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json();
    expect(info.roleID).toBe(1);
    const subs = (await t.inject({ method: 'GET', url: '/api/sub-companies', token })).json();
    expect(subs).toEqual([]);
    const demo = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: 'admin@kulu.fi', password: 'Kulu!2026' },
    });
    expect(demo.statusCode).toBe(400);
  });

  it('loads neither the demo clients nor the demo admin in production unless DEMO_DATA asks for them', async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      DEMO_DATA: '', // unset: the production default
      JWT_SECRET: 'p'.repeat(32),
      ADMIN_EMAIL: 'paakayttaja@yritys.fi',
      ADMIN_PASSWORD: 'Vahva!Salasana1',
    });
    expect(t.config.DEMO_DATA).toBe(false);
    const token = await t.login('paakayttaja@yritys.fi', 'Vahva!Salasana1');
    expect((await t.inject({ method: 'GET', url: '/api/sub-companies', token })).json()).toEqual([]);
    const demo = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: 'admin@kulu.fi', password: 'Kulu!2026' },
    });
    expect(demo.statusCode).toBe(400);
  });

  it('refuses to start a new database without demo data and without an admin', async () => {
    await expect(createTestApp({ DEMO_DATA: 'false' })).rejects.toThrow(/ADMIN_EMAIL/);
  });
});

describe('login rate limit', () => {
  it('answers 429 after too many login calls from one address', async () => {
    t = await createTestApp({ LOGIN_RATE_PER_MINUTE: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.inject({
        method: 'POST',
        url: '/api/Account/login',
        payload: { email: 'x@y.fi', password: 'x' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([400, 400, 400, 429]);
  });
});
