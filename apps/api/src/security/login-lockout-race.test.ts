import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import type * as passwords from '../lib/passwords.js';
import { verified } from '../test/password-spy.js';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../test/helpers.js';

vi.mock('../lib/passwords.js', async (importOriginal) =>
  (await import('../test/password-spy.js')).spiedPasswords(await importOriginal<typeof passwords>()),
);

let t: TestApp;
let userHash: string;
const email = DEMO.otherClientUser;

beforeAll(async () => {
  // A per-address rate limit above the 20 parallel calls: the account lock is under test here.
  t = await createTestApp({ LOGIN_RATE_PER_MINUTE: '1000' });
  const [u] = await t.deps.database.db.select().from(users).where(eq(users.email, email));
  userHash = u.passwordHash!;
});
afterAll(async () => {
  await t?.close();
});

const attempt = (password: string) =>
  t.inject({ method: 'POST', url: '/api/Account/login', payload: { email, password } });

describe('failed logins counted atomically', () => {
  it('checks only LOGIN_MAX_FAILURES of 20 parallel wrong passwords, then the account is locked', async () => {
    verified.length = 0;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(`Wrong-Pass-${i}!`)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(400));
    expect(new Set(answers.map((a) => a.json().code))).toEqual(new Set(['invalidCredentials']));
    // The account's own hash was checked exactly LOGIN_MAX_FAILURES times; the rest ran the dummy.
    expect(verified.filter((h) => h === userHash)).toHaveLength(t.config.LOGIN_MAX_FAILURES);
    expect(verified).toHaveLength(20);

    const right = await attempt(DEMO_PASSWORD);
    expect(right.statusCode).toBe(400);
    expect(verified.filter((h) => h === userHash)).toHaveLength(t.config.LOGIN_MAX_FAILURES);

    t.advanceClock(t.config.LOGIN_LOCK_MINUTES * 60_000 + 1000);
    expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(200);
    const [u] = await t.deps.database.db.select().from(users).where(eq(users.email, email));
    expect(u).toMatchObject({ failedLogins: 0, lockedUntil: null });
  }, 120_000);

  it('clears the count on a success, so failures must be consecutive to lock', async () => {
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < t.config.LOGIN_MAX_FAILURES - 1; i++) {
        expect((await attempt('Wrong-Pass-1!')).statusCode).toBe(400);
      }
      expect((await attempt(DEMO_PASSWORD)).statusCode).toBe(200);
    }
  }, 120_000);
});
