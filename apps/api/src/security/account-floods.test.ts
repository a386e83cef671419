import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isValidBusinessId } from '@kulu/shared';
import { clients, rateCounters } from '../db/schema/index.js';
import type * as passwords from '../lib/passwords.js';
import { hashed } from '../test/password-spy.js';
import { createTestApp, DEMO, linkToken, secondInstance, type TestApp } from '../test/helpers.js';

vi.mock('../lib/passwords.js', async (importOriginal) =>
  (await import('../test/password-spy.js')).spiedPasswords(await importOriginal<typeof passwords>()),
);

/**
 * Issue 37, item 5: what a stranger can repeat on the public account calls. A reset flood hashed a
 * password per request before the token was checked (real logins 20–30× slower), 4,900 reset mails
 * reached one person in 20 s, and 748 sign-ups went through in 15 s.
 */
let t: TestApp;
/** A second API instance on the same database (as behind a load balancer): its own process memory. */
let other: { app: FastifyInstance; close: () => Promise<void> };

beforeAll(async () => {
  t = await createTestApp(
    { MAIL_PER_RECIPIENT_PER_HOUR: '3', SIGNUP_PER_IP_PER_HOUR: '2', SIGNUP_PER_HOUR: '4' },
    { jobs: true },
  );
  other = await secondInstance(t);
}, 60_000);
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const forgot = (email: string, app: FastifyInstance = t.app, lang = 'en') =>
  app.inject({
    method: 'GET',
    url: `/api/Account/ForgotPassword?email=${encodeURIComponent(email)}`,
    headers: { 'accept-language': lang },
  });

const mailsTo = (email: string) => t.mails.filter((m) => m.to.includes(email));

describe('a reset flood', () => {
  it('hashes no password for made-up or used tokens, and the real link still works', async () => {
    const before = mailsTo(DEMO.clientUser).length;
    expect((await forgot(DEMO.clientUser)).statusCode).toBe(200);
    const token = linkToken(mailsTo(DEMO.clientUser)[before]!);
    hashed.length = 0;
    const fake = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.inject({
          method: 'POST',
          url: '/api/Account/ReSetPassword',
          payload: {
            token: `made-up-token-${i}-abcdefgh`,
            password: 'Tulva-Salasana-1!',
            confirmPassword: 'Tulva-Salasana-1!',
          },
        }),
      ),
    );
    expect(new Set(fake.map((r) => r.statusCode))).toEqual(new Set([400]));
    expect(new Set(fake.map((r) => r.json().code))).toEqual(new Set(['resetLinkExpired']));
    expect(hashed).toEqual([]);

    const real = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token, password: 'Oikea-Salasana-1!', confirmPassword: 'Oikea-Salasana-1!' },
    });
    expect(real.statusCode).toBe(200);
    expect(hashed).toEqual(['Oikea-Salasana-1!']);
    // Used once, the link is refused again without a hash.
    const again = await t.inject({
      method: 'POST',
      url: '/api/Account/ReSetPassword',
      payload: { token, password: 'Toinen-Salasana-1!', confirmPassword: 'Toinen-Salasana-1!' },
    });
    expect(again.json().code).toBe('resetLinkExpired');
    expect(hashed).toHaveLength(1);
    expect((await t.login(DEMO.clientUser, 'Oikea-Salasana-1!')).length).toBeGreaterThan(0);
  });

  it('activation links too: a made-up token is refused before any hash', async () => {
    hashed.length = 0;
    const res = await t.inject({
      method: 'POST',
      url: '/api/Account/Activate',
      payload: {
        token: 'made-up-activation-token',
        password: 'Tulva-Salasana-1!',
        confirmPassword: 'Tulva-Salasana-1!',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('activationLinkExpired');
    expect(hashed).toEqual([]);
  });
});

describe('mails to one recipient', () => {
  it('sends at most MAIL_PER_RECIPIENT_PER_HOUR reset links an hour, counted across instances, in the caller’s language', async () => {
    const email = DEMO.otherCompanyAdmin;
    const before = mailsTo(email).length;
    // Half the flood on each instance, all at once.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => forgot(email, i % 2 ? other.app : t.app, i % 3 ? 'fi' : 'en')),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    const refused = answers.filter((r) => r.statusCode !== 200);
    expect(refused).toHaveLength(9);
    for (const r of refused) {
      expect(r.statusCode).toBe(429);
      expect(r.json().code).toBe('tooManyResetMails');
    }
    expect(refused.map((r) => r.json().message)).toContain(
      'Tähän osoitteeseen on jo lähetetty useita palautuslinkkejä viimeisen tunnin aikana. Käytä uusinta linkkiä tai yritä myöhemmin uudelleen.',
    );
    expect(refused.map((r) => r.json().message)).toContain(
      'Several reset links have already been sent to this address in the last hour. Use the newest one, or try again later.',
    );
    expect(mailsTo(email).length - before).toBe(3);
    // Another person's mails are not held back by this one's limit.
    expect((await forgot(DEMO.consultant)).statusCode).toBe(200);

    // An hour later, the address may be sent a link again (and the ended windows' rows go).
    t.advanceClock(3_600_000);
    expect((await forgot(email.toUpperCase())).statusCode).toBe(200);
    expect(mailsTo(email).length - before).toBe(4);
  });

  it('counts the "someone tried to sign up with your address" notice in the same limit, answering the sign-up alike', async () => {
    const email = DEMO.otherClientUser;
    for (let i = 0; i < 3; i++) expect((await forgot(email)).statusCode).toBe(200);
    const signup = await t.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      remoteAddress: '198.51.100.50',
      payload: {
        type: 'company',
        companyName: 'Ilmoitus Oy',
        businessId: '1572860-0',
        fullName: 'Eero Heikkinen',
        email,
        contactNumber: '0401234567',
        password: 'Salasana1!',
      },
    });
    expect(signup.statusCode).toBe(201);
    // The notice was not queued: give the mail worker time to show it would have been.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(
      mailsTo(email).filter((m) => /yritettiin rekisteröityä|tried to sign up/.test(m.raw)),
    ).toHaveLength(0);
    expect(mailsTo(email)).toHaveLength(3);
    // Counted with the three resets, and refused.
    const [counter] = await t.deps.database.db
      .select({ count: rateCounters.count })
      .from(rateCounters)
      .where(eq(rateCounters.key, `mail:${email}`));
    expect(counter?.count).toBe(4);
  });
});

/** A valid business id of its own for sign-up `n`. */
function businessId(n: number): string {
  for (let base = 3_000_000 + n * 10; ; base++)
    for (let d = 0; d < 10; d++) if (isValidBusinessId(`${base}-${d}`)) return `${base}-${d}`;
}

describe('sign-ups', () => {
  const signup = (n: number, ip: string, app: FastifyInstance = t.app) =>
    app.inject({
      method: 'POST',
      url: '/api/Account/Signup',
      remoteAddress: ip,
      headers: { 'accept-language': 'fi' },
      payload: {
        type: 'company',
        companyName: `Tulva ${n} Oy`,
        businessId: businessId(n),
        fullName: 'Tulva Testaaja',
        email: `tulva.${n}@example.fi`,
        contactNumber: '0401234567',
        password: 'Salasana1!',
      },
    });
  const made = async () =>
    (
      await t.deps.database.db
        .select({ id: clients.id })
        .from(clients)
        .where(sql`${clients.companyName} like 'Tulva %'`)
    ).length;

  it('are limited per address and overall, refused before any hash, with nothing stored', async () => {
    await t.deps.database.db.delete(rateCounters);
    hashed.length = 0;
    // SIGNUP_PER_IP_PER_HOUR = 2 from one address, across both instances.
    const a = [
      await signup(1, '203.0.113.1'),
      await signup(2, '203.0.113.1', other.app),
      await signup(3, '203.0.113.1'),
    ];
    expect(a.map((r) => r.statusCode)).toEqual([201, 201, 429]);
    expect(a[2]!.json()).toMatchObject({
      code: 'tooManySignups',
      message: 'Viimeisen tunnin aikana on tehty liikaa rekisteröitymisiä. Yritä myöhemmin uudelleen.',
    });
    expect(hashed).toHaveLength(2);
    expect(await made()).toBe(2);

    // SIGNUP_PER_HOUR = 4 on the whole service: two more from another address, then none from a third.
    const b = [
      await signup(4, '203.0.113.2'),
      await signup(5, '203.0.113.2', other.app),
      await signup(6, '203.0.113.3'),
    ];
    expect(b.map((r) => r.statusCode)).toEqual([201, 201, 429]);
    expect(b[2]!.json().code).toBe('tooManySignups');
    expect(hashed).toHaveLength(4);
    expect(await made()).toBe(4);
    const [sixth] = await t.deps.database.db
      .select()
      .from(clients)
      .where(eq(clients.companyName, 'Tulva 6 Oy'));
    expect(sixth).toBeUndefined();

    // An hour on, sign-ups are open again.
    t.advanceClock(3_600_000);
    expect((await signup(7, '203.0.113.3')).statusCode).toBe(201);
  });
});
