import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, linkToken, type TestApp } from '../test/helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
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
