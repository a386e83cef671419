import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { clients, users } from '../db/schema/index.js';
import type * as passwords from '../lib/passwords.js';
import { LOGIN_REFUSAL_FLOOR_MS } from '../modules/auth/auth.service.js';
import { verified } from '../test/password-spy.js';
import { createTestApp, DEMO, mailText, type TestApp } from '../test/helpers.js';

vi.mock('../lib/passwords.js', async (importOriginal) =>
  (await import('../test/password-spy.js')).spiedPasswords(await importOriginal<typeof passwords>()),
);

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { jobs: true });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, password: string) =>
  t.inject({ method: 'POST', url: '/api/Account/login', payload: { email, password } });

describe('whether an email has an account does not show', () => {
  it('answers a locked account exactly like an unknown email, with one argon2 verification on both paths', async () => {
    const locked = DEMO.otherCompanyAdmin;
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES; i++) await login(locked, 'Wrong-Pass-1!');
    const [u] = await t.deps.database.db.select().from(users).where(eq(users.email, locked));
    expect(u.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    verified.length = 0;
    const a = await login(locked, 'Wrong-Pass-1!');
    const lockedChecks = verified.length;
    const b = await login('nobody-here@example.fi', 'Wrong-Pass-1!');
    const unknownChecks = verified.length - lockedChecks;
    expect(a.statusCode).toBe(400);
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.json()).toEqual(a.json());
    expect(a.json().code).toBe('invalidCredentials');
    // Same work on both paths (one argon2id verification, m=19 MiB, t=2), so the same time: a
    // locked account that skipped it would answer several times faster. The locked account's
    // own hash is not checked while it is locked.
    expect(lockedChecks).toBe(1);
    expect(unknownChecks).toBe(1);
    expect(verified).not.toContain(u.passwordHash);
  }, 120_000);

  it('refuses a known email with a wrong password no sooner than an unknown email is refused (issue 23, finding 8)', async () => {
    // Both answers wait for the same floor: the time of a refusal tells nothing of the account.
    for (const email of [DEMO.consultant, 'nobody-here@example.fi']) {
      const started = performance.now();
      const res = await login(email, 'Wrong-Pass-2!');
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalidCredentials');
      expect(performance.now() - started).toBeGreaterThanOrEqual(LOGIN_REFUSAL_FLOOR_MS);
    }
  });

  it('answers a sign-up with a taken email like a new one and mails the owner instead', async () => {
    const signup = (email: string, companyName: string, businessId: string) =>
      t.inject({
        method: 'POST',
        url: '/api/Account/Signup',
        payload: {
          type: 'company',
          companyName,
          businessId,
          fullName: 'Eero Heikkinen',
          email,
          contactNumber: '0401234567',
          password: 'Salasana1!',
        },
      });
    const fresh = await signup('uusi.osoite@example.fi', 'Uusi Yritys Oy', '1572860-0');
    const taken = await signup(DEMO.companyAdmin.toUpperCase(), 'Toinen Yritys Oy', '2980005-2');
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(201);
    expect(taken.json()).toEqual(fresh.json());

    // No second account and no client for the taken address.
    const owners = await t.deps.database.db.select().from(users).where(eq(users.email, DEMO.companyAdmin));
    expect(owners).toHaveLength(1);
    const made = await t.deps.database.db.select().from(clients).where(eq(clients.businessId, '2980005-2'));
    expect(made).toHaveLength(0);

    await expect
      .poll(() => t.mails.filter((m) => m.to.includes(DEMO.companyAdmin)).length, { timeout: 20_000 })
      .toBe(1);
    const notice = mailText(t.mails.find((m) => m.to.includes(DEMO.companyAdmin))!);
    expect(notice).toMatch(/tried to sign up|yritettiin rekisteröityä/);
    expect(notice).toContain('http://kulu.test/#/forgot-password');
    expect(t.mails.filter((m) => m.to.includes('uusi.osoite@example.fi'))).toHaveLength(0);
  });
});
