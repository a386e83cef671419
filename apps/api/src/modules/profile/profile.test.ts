import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { multipart } from '../../test/uploads.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A real PNG of the given size (one grey row repeated). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(zlib.crc32(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** POSTs a logo file named `filename`, declared a PNG whatever its bytes. */
const uploadLogo = (token: string, filename: string, data: Buffer) =>
  t.inject({
    method: 'POST',
    url: '/api/profile/logo',
    token,
    ...multipart([{ name: filename, data }], {}, { field: 'file', type: 'image/png' }),
  });
const send = (method: 'POST' | 'PUT', url: string, token: string, payload: object) =>
  t.inject({ method, url, token, payload });

describe('my profile', () => {
  it('shows account, user and operator contract details', async () => {
    const token = await t.login(DEMO.companyAdmin);
    const res = await t.inject({ method: 'GET', url: '/api/profile', token });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      fullName: 'Anna Virtanen',
      email: DEMO.companyAdmin,
      company: { name: 'Pohjola Rakennus Oy' },
    });
    expect(p.operatorContracts.map((o: { operatorName: string }) => o.operatorName)).toEqual([
      'Elisa',
      'Telia',
    ]);
  });

  it('updates the user details and refuses a contact number that is not 8-10 digits', async () => {
    const token = await t.login(DEMO.consultant);
    const ok = await send('PUT', '/api/profile', token, {
      fullName: 'Laura Nieminen-Salo',
      contactNumber: '0401234567',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ fullName: 'Laura Nieminen-Salo', contactNumber: '0401234567' });
    const bad = await send('PUT', '/api/profile', token, { fullName: 'Laura', contactNumber: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ contactNumber: 'invalid' });
  });

  it('keeps language and theme on the user', async () => {
    const token = await t.login(DEMO.clientUser);
    const res = await send('PUT', '/api/profile/settings', token, { languageID: 2, applicationThemeID: 7 });
    expect(res.statusCode).toBe(200);
    const info = (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json();
    expect(info).toMatchObject({ languageID: 2, applicationThemeID: 7 });
    const bad = await send('PUT', '/api/profile/settings', token, { applicationThemeID: 11 });
    expect(bad.statusCode).toBe(400);
    // Errors now come in the user's language.
    expect(bad.json().message).toBe('Tarkista merkityt kentät');
  });

  it('takes a PNG company logo and shows it in the session', async () => {
    const token = await t.login(DEMO.companyAdmin);
    const res = await uploadLogo(token, 'logo.png', png(40, 20));
    expect(res.statusCode).toBe(200);
    expect(res.json().logo).toMatch(/^data:image\/png;base64,/);
    const colleague = await t.login(DEMO.clientUser);
    const info = (
      await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token: colleague })
    ).json();
    expect(info.logo).toBe(res.json().logo);
    const del = await t.inject({ method: 'DELETE', url: '/api/profile/logo', token });
    expect(del.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/profile', token })).json().logo).toBeNull();
  });

  it('refuses a logo that is not a PNG by content, whatever its name, and one too large', async () => {
    const token = await t.login(DEMO.companyAdmin);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(100)]);
    const fake = await uploadLogo(token, 'logo.png', jpeg);
    expect(fake.statusCode).toBe(400);
    expect(fake.json().message).toBe('Logo must be a PNG image');
    const huge = await uploadLogo(token, 'big.png', png(3000, 10));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().code).toBe('logoTooLarge');
  });
});

describe('change password', () => {
  const changePassword = (token: string, oldPassword: string, newPassword: string, confirmPassword: string) =>
    send('POST', '/api/profile/password', token, { oldPassword, newPassword, confirmPassword });

  it('checks the old password, then revokes old tokens and hands out a new session', async () => {
    const token = await t.login(DEMO.otherClientUser);
    const wrong = await changePassword(token, 'Wrong!123', 'Uusi!Salasana9', 'Uusi!Salasana9');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('Old password is incorrect');
    const mismatch = await changePassword(token, 'Kulu!2026', 'Uusi!Salasana9', 'Toinen!Salasana9');
    expect(mismatch.json().fields).toEqual({ confirmPassword: 'mismatch' });
    const ok = await changePassword(token, 'Kulu!2026', 'Uusi!Salasana9', 'Uusi!Salasana9');
    expect(ok.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/profile', token })).statusCode).toBe(401);
    expect(
      (await t.inject({ method: 'GET', url: '/api/profile', token: ok.json().access_token })).statusCode,
    ).toBe(200);
    await t.login(DEMO.otherClientUser, 'Uusi!Salasana9');
  });
});

describe('operator switch and layout', () => {
  it('switches the session to another operator of the client without logging out', async () => {
    const token = await t.login(DEMO.companyAdmin);
    const info = (await t.inject({ method: 'GET', url: '/api/Account/GetClientInfo', token })).json();
    const telia = info.operators.find((o: { name: string }) => o.name === 'Telia');
    const res = await send('POST', '/api/session/operator', token, { operatorId: telia.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().loggedInOperatorName).toBe('Telia');
    const dna = (await t.inject({ method: 'GET', url: '/api/operators/public' }))
      .json()
      .find((o: { name: string }) => o.name === 'DNA');
    const refused = await send('POST', '/api/session/operator', token, { operatorId: dna.id });
    expect(refused.statusCode).toBe(400);
  });

  it('starts from the default layout and keeps what the provider admin chooses', async () => {
    const user = await t.login(DEMO.clientUser);
    expect((await t.inject({ method: 'GET', url: '/api/layout', token: user })).json()).toEqual({
      layout: 'fluid',
      aside: 'dark',
      header: 'fixed',
    });
    const admin = await t.login(DEMO.admin);
    const put = await send('PUT', '/api/layout', admin, {
      layout: 'boxed',
      aside: 'light',
      header: 'static',
    });
    expect(put.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/layout', token: user })).json().layout).toBe('boxed');
    const bad = await send('PUT', '/api/layout', admin, { layout: 'wide', aside: 'dark', header: 'fixed' });
    expect(bad.json().fields).toEqual({ layout: 'invalid' });
  });
});

describe('health and docs', () => {
  it('reports the database reachable and migrations current', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });

  it('serves the OpenAPI description with the compatibility calls', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/api/Token', '/api/Account/GetClientInfo', '/api/Account/ReSetPassword']),
    );
  });

  it('sends security headers', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });
});
