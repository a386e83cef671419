// Test helpers (imported by tests only) for the user sections that add and switch users on and off
// alike: a client's additional users and the provider's own users.
import { expect } from 'vitest';
import type { MessageCode } from '@kulu/shared';
import { loggedFor } from './client-wing.js';
import { mailText, type ReceivedMail, type TestApp } from './helpers.js';

/**
 * Since `before` (the count of mails then) exactly one mail went out, to `email`, with an activation
 * link; the new user `entity` `id` is logged as created, nothing more. The mail.
 */
export async function expectActivationMailed(
  t: Pick<TestApp, 'deps' | 'mails'>,
  before: number,
  email: string,
  user: { entity: string; id: number },
): Promise<ReceivedMail> {
  const mails = t.mails.slice(before);
  expect(mails).toHaveLength(1);
  expect(mails[0].to).toEqual([email]);
  expect(mailText(mails[0])).toContain('http://kulu.test/#/activate?token=');
  const logged = await loggedFor(t, user.entity, user.id);
  expect(logged.map((l) => l.action)).toEqual(['create']);
  return mails[0];
}

/**
 * Deactivating the user at `userUrl` (as `admin`) ends their signed-in session (`probe` answers 401)
 * and refuses their sign-in; `whileInactive` runs then; activating them lets them sign in again.
 * `codes`: the two answers' message codes.
 */
export async function expectDeactivateThenActivate(
  t: Pick<TestApp, 'inject' | 'login'>,
  admin: string,
  user: { url: string; email: string; password: string },
  probe: string,
  codes: { deactivated: MessageCode; activated: MessageCode },
  whileInactive: () => Promise<void> = async () => {},
): Promise<void> {
  const token = await t.login(user.email, user.password);
  const off = await t.inject({ method: 'POST', url: `${user.url}/deactivate`, token: admin });
  expect(off.statusCode).toBe(200);
  expect(off.json()).toMatchObject({ code: codes.deactivated, user: { status: 'inactive' } });
  expect((await t.inject({ method: 'GET', url: probe, token })).statusCode).toBe(401);
  const login = await t.inject({
    method: 'POST',
    url: '/api/Account/login',
    payload: { email: user.email, password: user.password },
  });
  expect(login.statusCode).not.toBe(200);
  await whileInactive();
  const on = await t.inject({ method: 'POST', url: `${user.url}/activate`, token: admin });
  expect(on.statusCode).toBe(200);
  expect(on.json()).toMatchObject({ code: codes.activated, user: { status: 'active' } });
  expect(await t.login(user.email, user.password)).toBeTruthy();
}
