import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, mailText, type TestApp } from '../test/helpers.js';

/** The reset link of the newest mail to an address. */
function lastLink(t: TestApp, to: string): string {
  const mail = [...t.mails].reverse().find((m) => m.to.includes(to));
  if (!mail) throw new Error(`no mail to ${to}`);
  const m = /(\S+)\/#\/reset-password\?token=/.exec(mailText(mail));
  if (!m) throw new Error('no reset link in mail');
  return m[1];
}

const forged = {
  host: 'evil.example',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https',
};

async function forgot(t: TestApp, email: string) {
  const res = await t.inject({
    method: 'GET',
    url: `/api/Account/ForgotPassword?email=${encodeURIComponent(email)}`,
    headers: forged,
  });
  expect(res.statusCode).toBe(200);
  await expect.poll(() => t.mails.filter((m) => m.to.includes(email)).length).toBeGreaterThan(0);
}

describe('links in mails (link poisoning)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://kulu.example.fi/' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('builds a reset link on PUBLIC_URL whatever Host and X-Forwarded-Host say', async () => {
    await forgot(t, DEMO.clientUser);
    expect(lastLink(t, DEMO.clientUser)).toBe('https://kulu.example.fi');
  });
});

describe('links in mails without PUBLIC_URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No PUBLIC_URL at all (the helper's default removed).
    t = await createTestApp({ PUBLIC_URL: undefined as unknown as string, PORT: '8123' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uses the configured default origin, never the request headers', async () => {
    await forgot(t, DEMO.companyAdmin);
    const link = lastLink(t, DEMO.companyAdmin);
    expect(link).toBe('http://localhost:8123');
    expect(link).not.toContain('evil.example');
  });
});
