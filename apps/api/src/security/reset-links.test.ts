import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../db/schema/index.js';
import { createTestApp, DEMO, linkToken, type TestApp } from '../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  // Several links per user in a file: the hourly mails per recipient are tested in account-floods.
  t = await createTestApp({ MAIL_PER_RECIPIENT_PER_HOUR: '100' });
});
afterAll(async () => {
  await t?.close();
});

/** Asks for a reset link and returns its token from the mail. */
async function resetToken(email: string): Promise<string> {
  const before = t.mails.length;
  const res = await t.inject({
    method: 'GET',
    url: `/api/Account/ForgotPassword?email=${encodeURIComponent(email)}`,
  });
  expect(res.statusCode).toBe(200);
  await expect.poll(() => t.mails.length).toBeGreaterThan(before);
  return linkToken(t.mails[t.mails.length - 1]);
}

const reset = (token: string, password: string) =>
  t.inject({
    method: 'POST',
    url: '/api/Account/ReSetPassword',
    payload: { token, password, confirmPassword: password },
  });

describe('reset links', () => {
  it('voids the other reset links of the user once one is used', async () => {
    const first = await resetToken(DEMO.clientUser);
    const second = await resetToken(DEMO.clientUser);
    expect(first).not.toBe(second);
    expect((await reset(first, 'Uusi-Salasana-1!')).statusCode).toBe(200);
    const late = await reset(second, 'Toinen-Salasana-2!');
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('resetLinkExpired');
    expect((await t.login(DEMO.clientUser, 'Uusi-Salasana-1!')).length).toBeGreaterThan(0);
  });

  it('lets only one of two links of a user used at the same moment succeed', async () => {
    const a = await resetToken(DEMO.companyAdmin);
    const b = await resetToken(DEMO.companyAdmin);
    const answers = await Promise.all([reset(a, 'Rinnakkain-A-1!'), reset(b, 'Rinnakkain-B-1!')]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });

  it('leaves other users’ links open', async () => {
    const mine = await resetToken(DEMO.otherCompanyAdmin);
    const theirs = await resetToken(DEMO.otherClientUser);
    expect((await reset(mine, 'Oma-Salasana-1!')).statusCode).toBe(200);
    expect((await reset(theirs, 'Heidan-Salasana-1!')).statusCode).toBe(200);
  });
});

describe('links outlive no change of their account (issue 23, finding 7)', () => {
  const expired = async (token: string) => {
    const res = await reset(token, 'Myohassa-Salasana-9!');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('resetLinkExpired');
  };

  it('voids an open link when an admin deactivates and activates the user again', async () => {
    const admin = await t.login(DEMO.admin);
    const [consultant] = await t.deps.database.db
      .select()
      .from(users)
      .where(eq(users.email, DEMO.consultant));
    const link = await resetToken(DEMO.consultant);
    for (const action of ['deactivate', 'activate']) {
      const res = await t.inject({
        method: 'POST',
        url: `/api/provider-users/${consultant.id}/${action}`,
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expired(link);
    // A link asked for after the change is open.
    expect((await reset(await resetToken(DEMO.consultant), 'Uusi-Konsultti-1!')).statusCode).toBe(200);
  });

  it('voids open links when the address or the password changes, whoever changes it, and not for a name', async () => {
    const { db } = t.deps.database;
    const email = DEMO.otherClientUser;
    const [user] = await db.select().from(users).where(eq(users.email, email));
    const kept = await resetToken(email);
    await db.update(users).set({ fullName: 'Sanna Laine-Virta' }).where(eq(users.id, user.id));
    const toOldAddress = await resetToken(email);
    await db.update(users).set({ email: 'sanna.uusi@saimaanlogistiikka.fi' }).where(eq(users.id, user.id));
    await expired(toOldAddress);
    await expired(kept);
    await db.update(users).set({ email }).where(eq(users.id, user.id));
    const beforePassword = await resetToken(email);
    await db.update(users).set({ passwordHash: user.passwordHash }).where(eq(users.id, user.id));
    expect((await reset(beforePassword, 'Ei-Muutosta-1!')).statusCode).toBe(200);
    const beforeChange = await resetToken(email);
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/api/profile/password',
          token: await t.login(email, 'Ei-Muutosta-1!'),
          payload: {
            oldPassword: 'Ei-Muutosta-1!',
            newPassword: 'Vaihdettu-1!',
            confirmPassword: 'Vaihdettu-1!',
          },
        })
      ).statusCode,
    ).toBe(200);
    await expired(beforeChange);
  });
});

describe('a reset link says on opening whether it is still open (issue 37, item 17)', () => {
  const status = (token: string) =>
    t.inject({ method: 'POST', url: '/api/Account/ResetLinkStatus', payload: { token } });

  it('answers open for a fresh link without using it, and closed once used, expired or made up', async () => {
    const link = await resetToken(DEMO.consultant);
    for (let i = 0; i < 2; i++) expect((await status(link)).json()).toEqual({ open: true });
    // Asking did not use it.
    expect((await reset(link, 'Avattu-Ensin-1!')).statusCode).toBe(200);
    expect((await status(link)).json()).toEqual({ open: false });
    expect((await status('made-up-token-0123456789')).json()).toEqual({ open: false });

    const late = await resetToken(DEMO.consultant);
    t.advanceClock(t.config.RESET_TOKEN_TTL_HOURS * 3_600_000 + 1000);
    const answer = await status(late);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ open: false });
  });

  it('refuses a malformed request with 400, and is counted in the account calls’ per-address budget', async () => {
    expect((await status('')).statusCode).toBe(400);
    const extra = await t.inject({
      method: 'POST',
      url: '/api/Account/ResetLinkStatus',
      payload: { token: 'made-up-token-0123456789', password: 'x' },
    });
    expect(extra.statusCode).toBe(400);
    const limited = await createTestApp({ LOGIN_RATE_PER_MINUTE: '3' });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push(
          (
            await limited.inject({
              method: 'POST',
              url: '/api/Account/ResetLinkStatus',
              payload: { token: `made-up-token-${i}-0123456789` },
            })
          ).statusCode,
        );
      expect(codes).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
