import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ROLE } from '@kulu/shared';
import { users } from '../../db/schema/index.js';
import {
  activateByMail,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  linkToken,
  mailText,
  type TestApp,
} from '../../test/helpers.js';
import { sendActivationMail } from './auth.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  payload: new URLSearchParams(fields).toString(),
});

/** The fields of a password grant. */
const grant = (username: string, password = DEMO_PASSWORD, extra: Record<string, string> = {}) => ({
  grant_type: 'password',
  username,
  password,
  ...extra,
});
/** POST /api/Token with a form of `fields`. */
const postToken = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.inject({ method: 'POST', url: '/api/Token', ...form(fields, headers) });

describe('POST /api/Token', () => {
  it('answers a bearer token with the session details of the spec', async () => {
    const res = await postToken(grant(DEMO.admin));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token_type).toBe('bearer');
    expect(body.expires_in).toBe(3600);
    expect(typeof body.access_token).toBe('string');
    for (const k of [
      'fullName',
      'emailID',
      'roleID',
      'languageID',
      'logo',
      'applicationThemeID',
      'basePath',
      'acessPermissions',
      'loggedInOperatorName',
      'loggedInOperatorID',
    ]) {
      expect(body).toHaveProperty(k);
    }
    expect(body.roleID).toBe(ROLE.providerAdmin);
    expect(body.acessPermissions).toContain('masters.plans');
  });

  it('scopes the session to the chosen operator', async () => {
    const ops = (await t.inject({ method: 'GET', url: '/api/operators/public' })).json() as Array<{
      id: number;
      name: string;
    }>;
    const telia = ops.find((o) => o.name === 'Telia')!;
    const res = await postToken(grant(DEMO.companyAdmin, DEMO_PASSWORD, { OperatorId: String(telia.id) }));
    expect(res.statusCode).toBe(200);
    expect(res.json().loggedInOperatorID).toBe(telia.id);
    expect(res.json().loggedInOperatorName).toBe('Telia');
    const info = await t.inject({
      method: 'GET',
      url: '/api/Account/GetClientInfo',
      token: res.json().access_token,
    });
    expect(info.json().loggedInOperatorName).toBe('Telia');
    // The company's operators, by name, as the demo gives them (Pohjola: more than one).
    const names = (info.json().operators as { id: number; name: string }[]).map((o) => o.name);
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual([...names].sort());
    expect(info.json().operators).toEqual(res.json().operators);
  });

  it('takes the only operator of a user who has one when none is chosen, and refuses one the client has not', async () => {
    const res = await postToken(grant(DEMO.otherCompanyAdmin));
    expect(res.json().loggedInOperatorName).toBe('DNA');
    const elisa = res.json().operators.find((o: { name: string }) => o.name === 'Elisa');
    expect(elisa).toBeUndefined();
    const ops = (await t.inject({ method: 'GET', url: '/api/operators/public' })).json() as Array<{
      id: number;
      name: string;
    }>;
    const bad = await postToken(
      grant(DEMO.otherCompanyAdmin, DEMO_PASSWORD, {
        OperatorId: String(ops.find((o) => o.name === 'Elisa')!.id),
      }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('unknownOperator');
  });

  it('refuses other grant types in OAuth error form', async () => {
    const res = await postToken({ grant_type: 'client_credentials' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'unsupported_grant_type' });
  });

  it('says "Please enter valid credential" for a wrong password and for an unknown email alike', async () => {
    const wrong = await postToken(grant(DEMO.consultant, 'Wrong!123'));
    const unknown = await postToken(grant('nobody@example.fi', 'Wrong!123'));
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_grant',
        code: 'invalidCredentials',
        message: 'Please enter valid credential',
      });
    }
  });

  it('answers errors in Finnish when the caller asks for Finnish', async () => {
    const res = await postToken(grant('nobody@example.fi', 'x'), { 'accept-language': 'fi-FI,fi;q=0.9' });
    expect(res.json().message).toBe('Anna kelvolliset tunnukset');
  });

  it('refuses a cookie-carrying call without a matching XSRF header with 403', async () => {
    const body = form(grant(DEMO.admin));
    const res = await t.inject({
      method: 'POST',
      url: '/api/Token',
      csrf: false,
      ...body,
      headers: { ...body.headers, cookie: 'XSRF-TOKEN=aaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('csrf');
    const mismatched = await t.inject({
      method: 'POST',
      url: '/api/Token',
      csrf: false,
      headers: {
        cookie: 'XSRF-TOKEN=aaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        'x-xsrf-token': 'bbbbbbbbbbbbbbbbbbbbbbbbbbbb',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=password',
    });
    expect(mismatched.statusCode).toBe(403);
  });

  it('sets the XSRF-TOKEN cookie on a GET', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/operators/public', csrf: false });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(cookie?.sameSite).toBe('Lax');
  });

  it('keeps a valid XSRF-TOKEN cookie, and gives a bearer call none (it needs no check)', async () => {
    const kept = await t.inject({
      method: 'GET',
      url: '/api/operators/public',
      csrf: false,
      headers: { cookie: 'XSRF-TOKEN=aaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
    });
    expect(kept.cookies.find((c) => c.name === 'XSRF-TOKEN')).toBeUndefined();
    const token = await t.login(DEMO.companyAdmin);
    const bearer = await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token, csrf: false });
    expect(bearer.statusCode).toBe(200);
    expect(bearer.headers['set-cookie']).toBeUndefined();
  });
});

describe('POST /api/Account/login', () => {
  it('answers like the token call for JSON credentials', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: DEMO.consultant.toUpperCase(), password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token_type: 'bearer', roleID: ROLE.consultant, basePath: '/admin' });
    expect(res.json().acessPermissions).not.toContain('masters.plans');
  });

  it('refuses a user who is not activated, and one who is inactive, only with the right password', async () => {
    const { db } = t.deps.database;
    await db.update(users).set({ activated: false }).where(eq(users.email, DEMO.otherClientUser));
    const notActivated = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: DEMO.otherClientUser, password: DEMO_PASSWORD },
    });
    expect(notActivated.statusCode).toBe(400);
    expect(notActivated.json().message).toBe('User is not activated');
    const guess = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: DEMO.otherClientUser, password: 'Guess!123' },
    });
    expect(guess.json().code).toBe('invalidCredentials');

    await db
      .update(users)
      .set({ activated: true, status: 'inactive' })
      .where(eq(users.email, DEMO.otherClientUser));
    const inactive = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: DEMO.otherClientUser, password: DEMO_PASSWORD },
    });
    expect(inactive.json().message).toBe('User is currently inactive');
    await db.update(users).set({ status: 'active' }).where(eq(users.email, DEMO.otherClientUser));
  });

  it('locks an account after repeated failures, even for the right password, until the lock ends', async () => {
    const email = DEMO.otherCompanyAdmin;
    for (let i = 0; i < t.config.LOGIN_MAX_FAILURES - 1; i++) {
      const r = await t.inject({
        method: 'POST',
        url: '/api/Account/login',
        payload: { email, password: 'Wrong!123' },
      });
      expect(r.statusCode).toBe(400);
    }
    const last = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email, password: 'Wrong!123' },
    });
    // A locked account answers exactly like a wrong password (no account enumeration).
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe('invalidCredentials');
    const right = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(right.statusCode).toBe(400);
    expect(right.json().code).toBe('invalidCredentials');
    t.advanceClock(t.config.LOGIN_LOCK_MINUTES * 60_000 + 1000);
    const after = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email, password: DEMO_PASSWORD },
    });
    expect(after.statusCode).toBe(200);
  });
});

describe('GET /api/Account/GetClientInfo', () => {
  it('answers the session details for a valid token', async () => {
    const token = await t.login(DEMO.clientUser);
    const res = await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      emailID: DEMO.clientUser,
      roleID: ROLE.clientUser,
      basePath: '/company',
      companyName: 'Pohjola Rakennus Oy',
      menuDisabled: false,
    });
    expect(res.json().acessPermissions).not.toContain('invoices.upload');
  });

  it('answers 401 without a token, with a forged one and with an expired one', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo' })).statusCode).toBe(401);
    const token = await t.login(DEMO.admin);
    const [h, p] = token.split('.');
    const forged = `${h}.${p}.${Buffer.from('not the signature').toString('base64url')}`;
    expect(
      (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token: forged })).statusCode,
    ).toBe(401);
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: '1', role: 1, tv: 0, iss: 'kulu', exp: 9999999999 })).toString('base64url')}.${token.split('.')[2]}`;
    expect(
      (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token: tampered })).statusCode,
    ).toBe(401);
    t.advanceClock(t.config.TOKEN_TTL_MINUTES * 60_000 + 5_000);
    const expired = await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toBe('Your session has expired, please login again');
  });

  it('disables the menu of a terminated client', async () => {
    const { clients } = await import('../../db/schema/index.js');
    const token = await t.login(DEMO.companyAdmin);
    const { db } = t.deps.database;
    await db
      .update(clients)
      .set({ profileStatus: 'terminated' })
      .where(eq(clients.companyName, 'Pohjola Rakennus Oy'));
    const res = await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token });
    expect(res.json().menuDisabled).toBe(true);
    await db
      .update(clients)
      .set({ profileStatus: 'active' })
      .where(eq(clients.companyName, 'Pohjola Rakennus Oy'));
  });
});

describe('POST /api/Account/Signup', () => {
  const valid = {
    type: 'company',
    companyName: 'Lapin Sähkö Oy',
    businessId: '1572860-0',
    fullName: 'Eero Heikkinen',
    email: 'eero.heikkinen@lapinsahko.fi',
    contactNumber: '0401234567',
    password: 'Salasana1!',
  };

  it('registers an interested company whose user must be activated before login', async () => {
    const res = await t.inject({ method: 'POST', url: '/api/Account/Signup', payload: valid });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toMatch(/Registration successful/);
    const login = await t.inject({
      method: 'POST',
      url: '/api/Account/login',
      payload: { email: valid.email, password: valid.password },
    });
    expect(login.json().message).toBe('User is not activated');
  });

  it.each([
    ['companyName', { companyName: 'POHJOLA RAKENNUS OY' }, 'Company name already in use'],
    ['businessId', { businessId: '2345678-0' }, 'Business id already in use'],
  ])('refuses a %s that is already in use', async (_f, change, text) => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      payload: {
        ...valid,
        companyName: 'Uusi Yritys Oy',
        businessId: '2980005-2',
        email: 'uusi@yritys.fi',
        ...change,
      },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(text);
  });

  it('refuses missing and invalid fields field by field', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      payload: {
        ...valid,
        companyName: undefined,
        businessId: '1234567-2',
        password: 'weak',
        email: 'not-an-email',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      companyName: 'required',
      businessId: 'invalid',
      password: 'invalid',
      email: 'invalid',
    });
  });
});

describe('forgot and reset password', () => {
  it('mails a reset link over SMTP that sets a new password once', async () => {
    const before = t.mails.length;
    const res = await t.inject({
      method: 'GET',
      url: `/api/Account/ForgotPassword?email=${DEMO.consultant}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Reset password mail has been sent to the registered email');
    expect(t.mails.length).toBe(before + 1);
    const mail = t.mails.at(-1)!;
    expect(mail.to).toEqual([DEMO.consultant]);
    expect(mailText(mail)).toContain('http://kulu.test/#/reset-password?token=');
    const token = linkToken(mail);
    const oldSession = await t.login(DEMO.consultant);

    const reset = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token, password: 'Uusi!Salasana2', confirmPassword: 'Uusi!Salasana2' },
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.headers['content-type']).toMatch(/^text\/plain/);
    expect(reset.body).toBe('Your password has been reset, please login');
    expect(
      (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token: oldSession })).statusCode,
    ).toBe(401);
    await t.login(DEMO.consultant, 'Uusi!Salasana2');

    const again = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token, password: 'Kolmas!Salasana3', confirmPassword: 'Kolmas!Salasana3' },
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe('Sorry, the password reset link has expired');
  });

  it('refuses an expired reset link', async () => {
    await t.inject({ method: 'GET', url: `/api/Account/ForgotPassword?email=${DEMO.companyAdmin}` });
    const token = linkToken(t.mails.at(-1)!);
    t.advanceClock(t.config.RESET_TOKEN_TTL_HOURS * 3_600_000 + 60_000);
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token, password: 'Uusi!Salasana2', confirmPassword: 'Uusi!Salasana2' },
    });
    expect(res.json().code).toBe('resetLinkExpired');
  });

  it('refuses a reset whose passwords differ or break the policy', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token: 'x'.repeat(43), password: 'Uusi!Salasana2', confirmPassword: 'Other!Salasana2' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ confirmPassword: 'mismatch' });
    const weak = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token: 'x'.repeat(43), password: 'alllower1!', confirmPassword: 'alllower1!' },
    });
    expect(weak.json().fields.password).toBe('invalid');
  });

  it('says when the email does not exist', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/api/Account/ForgotPassword?email=ei.ole@olemassa.fi',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Email id does not exist');
  });
});

describe('customer user activation', () => {
  it('sets the first password through a single-use activation link', async () => {
    const { db } = t.deps.database;
    const [u] = await db
      .insert(users)
      .values({
        email: 'uusi.kayttaja@pohjolarakennus.fi',
        fullName: 'Uusi Käyttäjä',
        roleId: ROLE.clientUser,
        activated: false,
      })
      .returning();
    await sendActivationMail(t.deps, u.id);
    const mail = t.mails.at(-1)!;
    expect(mailText(mail)).toContain('Uusi Käyttäjä');
    expect(mailText(mail)).toContain('http://kulu.test/#/activate?token=');
    const res = await activateByMail(t, mail, 'Eka!Salasana1');
    expect(res.statusCode).toBe(200);
    await t.login('uusi.kayttaja@pohjolarakennus.fi', 'Eka!Salasana1');
    const again = await activateByMail(t, mail, 'Eka!Salasana1');
    expect(again.json().code).toBe('activationLinkExpired');
  });
});
