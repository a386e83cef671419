import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createTestApp, DEMO, DEMO_PASSWORD, type TestApp } from '../test/helpers.js';

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];
const xsrf = 'log-test-xsrf-token-0123456789';
const browser = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };

beforeAll(async () => {
  t = await createTestApp();
  // The same dependencies, with a logging app whose lines the test reads.
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  app = await buildApp({ ...t.deps, config: { ...t.config, LOG_LEVEL: 'info' } }, { logStream: stream });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

const signup = {
  type: 'company',
  companyName: 'Lokitesti Oy',
  businessId: '2980005-2',
  contactNumber: '0401234567',
  email: 'lokitesti@example.fi',
  fullName: 'Nul\u0000 Name',
  password: 'Secret-Signup-Pass-1!',
};

describe('logs (no bodies, no secrets)', () => {
  it('keeps passwords, hashes, tokens, cookies and emails of auth calls out of every log line', async () => {
    const failed = await app.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      headers: browser,
      payload: signup,
    });
    // Refused (400 by input validation; before it, the database refused it with a 500).
    expect(failed.statusCode).not.toBe(201);
    // The incident: the database refused the sign-up and the error carried the query's values.
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g';
    const spy = vi
      .spyOn(t.deps.database.db, 'transaction')
      .mockRejectedValueOnce(
        new DrizzleQueryError(
          'insert into "users" ("email", "password_hash", "full_name") values ($1, $2, $3)',
          ['lokitesti@example.fi', hash, 'Nul Name'],
          new Error('invalid byte sequence for encoding "UTF8": 0x00'),
        ),
      );
    const crashed = await app.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      headers: browser,
      payload: { ...signup, fullName: 'Nul Name' },
    });
    spy.mockRestore();
    expect(crashed.statusCode).toBe(500);
    expect(lines.some((l) => l.includes('Failed query'))).toBe(true);
    const login = await app.inject({
      method: 'POST',
      url: '/api/Account/login',
      headers: browser,
      payload: { email: DEMO.admin, password: DEMO_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().access_token as string;
    await app.inject({
      method: 'GET',
      url: '/api/Account/GetClientInfo',
      headers: { ...browser, authorization: `Bearer ${token}` },
    });
    await app.inject({
      method: 'GET',
      url: `/api/Account/ForgotPassword?email=${encodeURIComponent(DEMO.clientUser)}`,
    });
    await app.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      headers: browser,
      payload: {
        token: 'a-reset-token-value-0123456789',
        password: 'Reset-Pass-1!',
        confirmPassword: 'Reset-Pass-1!',
      },
    });

    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(log).toContain('/api/Account/Signup');
    for (const secret of [
      'Secret-Signup-Pass-1!',
      'c2FsdHNhbHQ',
      DEMO_PASSWORD,
      '$argon2',
      'lokitesti@example.fi',
      DEMO.clientUser,
      token,
      xsrf,
      'a-reset-token-value-0123456789',
      'Reset-Pass-1!',
    ]) {
      expect(log, `log contains ${secret}`).not.toContain(secret);
    }
  });

  it('redacts secret keys at any depth and the bound parameters of a failed query', () => {
    const err = Object.assign(
      new Error(
        'Failed query: insert into "users" ("email", "password_hash") values ($1, $2)\nparams: who@example.fi,$argon2id$v=19$m=19456',
      ),
      { params: ['who@example.fi', '$argon2id$v=19$m=19456'], query: 'insert into "users"' },
    );
    app.log.error(
      {
        err,
        body: { password: 'p-1', user: { passwordHash: 'h-1', session: { token: 't-1' } } },
        hash: 'h-2',
      },
      'x',
    );
    const line = lines.at(-1)!;
    expect(line).toContain('Failed query');
    for (const secret of ['who@example.fi', '$argon2id', 'p-1', 'h-1', 't-1', 'h-2'])
      expect(line).not.toContain(secret);
  });
});
