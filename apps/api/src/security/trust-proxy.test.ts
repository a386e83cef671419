import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';

/** One failed login from a client that claims a different X-Forwarded-For address each time. */
const attempt = (t: TestApp, i: number) =>
  t.inject({
    method: 'POST',
    url: '/api/Account/login',
    headers: { 'x-forwarded-for': `203.0.113.${i}` },
    payload: { email: DEMO.clientUser, password: `Wrong-${i}!` },
  });

describe('login rate limit and X-Forwarded-For', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The account lock must not answer first: only the rate limit is under test here.
    t = await createTestApp({ LOGIN_RATE_PER_MINUTE: '3', LOGIN_MAX_FAILURES: '100' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps limiting a client that rotates X-Forwarded-For (no proxy is trusted by default)', async () => {
    const codes: number[] = [];
    for (let i = 1; i <= 6; i++) codes.push((await attempt(t, i)).statusCode);
    expect(codes.slice(0, 3)).toEqual([400, 400, 400]);
    expect(codes.slice(3)).toEqual([429, 429, 429]);
  });

  it('shares one per-IP budget over every public account call (issue 23, finding 10)', async () => {
    // Another client address (behind no trusted proxy, so the connection's own): a fresh budget.
    const from = { remoteAddress: '198.51.100.9' };
    const calls = [
      () =>
        t.app.inject({
          ...from,
          method: 'POST',
          url: '/api/Account/login',
          payload: { email: DEMO.clientUser, password: 'Wrong-1!' },
        }),
      () =>
        t.app.inject({
          ...from,
          method: 'POST',
          url: '/api/Token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `grant_type=password&username=${encodeURIComponent(DEMO.clientUser)}&password=Wrong-2!`,
        }),
      () =>
        t.app.inject({
          ...from,
          method: 'GET',
          url: '/api/Account/ForgotPassword?email=nobody%40example.fi',
        }),
      () =>
        t.app.inject({
          ...from,
          method: 'POST',
          url: '/api/Account/ReSetPassword',
          payload: { token: 'x'.repeat(43), password: 'Str0ng!Passw0rd' },
        }),
    ];
    const codes: number[] = [];
    for (const call of calls) codes.push((await call()).statusCode);
    // Three calls over three routes spend the budget of three; the fourth route is refused too.
    expect(codes.slice(0, 3).every((c) => c !== 429)).toBe(true);
    expect(codes[3]).toBe(429);
  });
});

describe('login rate limit behind a configured proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_RATE_PER_MINUTE: '3',
      LOGIN_MAX_FAILURES: '100',
      TRUST_PROXY: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keys on the client address the trusted proxy forwards', async () => {
    // The test client connects from 127.0.0.1, the configured proxy: its header names the client.
    const sameClient: number[] = [];
    for (let i = 0; i < 4; i++) sameClient.push((await attempt(t, 7)).statusCode);
    expect(sameClient).toEqual([400, 400, 400, 429]);
    expect((await attempt(t, 8)).statusCode).toBe(400);
  });
});
