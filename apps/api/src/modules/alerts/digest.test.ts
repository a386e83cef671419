import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, max } from 'drizzle-orm';
import type { AlertDigest } from '@kulu/shared';
import { alerts, subCompanies, users } from '../../db/schema/index.js';
import {
  createTestApp,
  DEMO,
  limitDemoClientUser,
  mailText,
  operatorIdOf,
  type ReceivedMail,
  type TestApp,
} from '../../test/helpers.js';
import { dailyAlertsHandler, evaluateAlertsHandler } from './alerts.jobs.js';
import { writeTestInvoice, type TestSub } from './test-invoices.js';

/**
 * The alert digest mail (decision 0026): one mail per recipient and run, in their language, with
 * links from PUBLIC_URL, only what their Scope sees, never twice.
 */
let t: TestApp;
let pohjola: number;
let elisa: number;
let subA: number;
let subB: number;
const id: Record<string, number> = {};

let phoneSeq = 5000000;
const phone = () => `+35840${phoneSeq++}`;
let monthSeq = 0;
/** Each invoice a month of its own (one operator's invoices of one month would share findings). */
const nextMonth = () => new Date(Date.UTC(2024, monthSeq++, 1)).toISOString().slice(0, 10);

/** A phone with €0.50 of roaming outside the EU: one roaming alert each. */
const roamer = (subCompanyId: number): TestSub => ({
  phone: phone(),
  subCompanyId,
  lines: [
    { label: 'Test plan', category: 'monthly_fee', amount: 20 },
    { label: 'Roaming puhelut muualla', category: 'voice', region: 'world', amount: 0.5 },
  ],
});

const job = <T>(data: T) =>
  ({ id: 'test', data, retryCount: 0 }) as Parameters<ReturnType<typeof evaluateAlertsHandler>>[0] & {
    data: T;
  };

/** Writes an invoice and runs the evaluate-alerts job on it, as after an import; the mails it sent. */
async function importAndEvaluate(subs: TestSub[]): Promise<{ invoiceId: number; mails: ReceivedMail[] }> {
  const { db } = t.deps.database;
  // Billed to a sub-company of its own: no "new" or "gone" findings against earlier invoices.
  const [account] = await db
    .insert(subCompanies)
    .values({ clientId: pohjola, name: `Digest case ${monthSeq}` })
    .returning({ id: subCompanies.id });
  const invoiceId = await writeTestInvoice(db, {
    clientId: pohjola,
    operatorId: elisa,
    month: nextMonth(),
    subCompanyId: account.id,
    subs,
  });
  const mails = await mailed(() => evaluateAlertsHandler(t.deps)(job({ invoiceId })));
  return { invoiceId, mails };
}

async function mailed(run: () => Promise<unknown>): Promise<ReceivedMail[]> {
  const before = t.mails.length;
  await run();
  return t.mails.slice(before);
}

const daily = () => mailed(() => dailyAlertsHandler(t.deps)(job({ day: '2020-01-05' })));

const to = (mails: ReceivedMail[], email: string) => mails.filter((m) => m.to.includes(email));

/** The mail's subject, its encoded words (RFC 2047) decoded. */
const subject = (mail: ReceivedMail) =>
  /^Subject: (.*(?:\r?\n[ \t].*)*)/m
    .exec(mail.raw)![1]
    .replace(/\r?\n[ \t]/g, '')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_, enc: string, body: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(body, 'base64').toString('utf8')
        : Buffer.from(
            body
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    );

/** Sets the users' digests (the rest off), each starting after the alerts stored so far. */
async function setDigests(modes: Partial<Record<keyof typeof DEMO, AlertDigest>>) {
  const { db } = t.deps.database;
  const [{ last }] = await db.select({ last: max(alerts.id) }).from(alerts);
  await db.update(users).set({ alertDigest: 'off', alertDigestAfter: last ?? 0 });
  for (const [k, mode] of Object.entries(modes)) {
    await db.update(users).set({ alertDigest: mode }).where(eq(users.id, id[k]));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.deps.database;
  const rows = await db
    .select({ id: users.id, email: users.email, clientId: users.clientId })
    .from(users)
    .where(inArray(users.email, Object.values(DEMO)));
  for (const [k, email] of Object.entries(DEMO)) id[k] = rows.find((r) => r.email === email)!.id;
  pohjola = rows.find((r) => r.email === DEMO.companyAdmin)!.clientId!;
  elisa = await operatorIdOf(t, 'Elisa');
  // The client user holds `alerts` and is limited to one sub-company (A), no cost centers.
  ({ subA, subB } = await limitDemoClientUser(t, ['general', 'dashboards', 'alerts']));
});

afterAll(async () => {
  await t?.close();
});

describe('the digest mail', () => {
  it('sends one mail per recipient for a large invoice, the 20 most severe listed and the rest counted', async () => {
    await setDigests({ companyAdmin: 'immediate', consultant: 'immediate' });
    const { mails } = await importAndEvaluate(Array.from({ length: 60 }, () => roamer(subA)));
    expect(to(mails, DEMO.companyAdmin)).toHaveLength(1);
    expect(to(mails, DEMO.consultant)).toHaveLength(1);
    expect(mails).toHaveLength(2);
    const text = mailText(to(mails, DEMO.companyAdmin)[0]);
    expect(subject(to(mails, DEMO.companyAdmin)[0])).toBe('Kulu: 60 new alerts');
    expect(text).toContain('and 40 more on the Alerts page');
    expect(text.match(/^- High: /gm)).toHaveLength(20);
  });

  it('builds every link from PUBLIC_URL: the subscription, the Alerts page and the profile', async () => {
    await setDigests({ companyAdmin: 'immediate', consultant: 'immediate' });
    const { mails } = await importAndEvaluate([roamer(subA)]);
    const company = mailText(to(mails, DEMO.companyAdmin)[0]);
    const links = company.match(/https?:\/\/[^\s"<]+/g) ?? [];
    expect(links.length).toBeGreaterThan(0);
    expect(links.every((l) => l.startsWith(`${t.config.PUBLIC_URL}/#/`))).toBe(true);
    expect(company).toMatch(/http:\/\/kulu\.test\/#\/company\/subscriptions\/\d+/);
    expect(company).toContain('All alerts: http://kulu.test/#/company/alerts');
    expect(company).toContain('Change this in your profile: http://kulu.test/#/profile');
    // A provider user's links are under /admin, each alert named with its client.
    const consultant = mailText(to(mails, DEMO.consultant)[0]);
    expect(consultant).toMatch(/http:\/\/kulu\.test\/#\/admin\/subscriptions\/\d+/);
    expect(consultant).toContain('High: Pohjola Rakennus Oy: ');
  });

  it('mails immediate users after the evaluation, daily users in the daily run, and off users never', async () => {
    await setDigests({ companyAdmin: 'daily', consultant: 'immediate', admin: 'off' });
    const evaluated = await importAndEvaluate([roamer(subA), roamer(subB)]);
    expect(evaluated.mails.flatMap((m) => m.to)).toEqual([DEMO.consultant]);
    const first = await daily();
    expect(to(first, DEMO.companyAdmin)).toHaveLength(1);
    expect(mailText(to(first, DEMO.companyAdmin)[0])).toContain('once a day');
    expect(to(first, DEMO.consultant)).toHaveLength(0);
    expect(to(first, DEMO.admin)).toHaveLength(0);
    // The daily run again: everything is already digested.
    expect(await daily()).toHaveLength(0);
  });

  it('gives a user limited to a sub-company only the alerts of that sub-company', async () => {
    await setDigests({ companyAdmin: 'immediate', clientUser: 'immediate' });
    const mine = roamer(subA);
    const other = roamer(subB);
    const { mails } = await importAndEvaluate([mine, other]);
    const user = mailText(to(mails, DEMO.clientUser)[0]);
    expect(user).toContain(mine.phone);
    expect(user).not.toContain(other.phone);
    expect(subject(to(mails, DEMO.clientUser)[0])).toBe('Kulu: 1 new alert');
    const admin = mailText(to(mails, DEMO.companyAdmin)[0]);
    expect(admin).toContain(mine.phone);
    expect(admin).toContain(other.phone);
  });

  it('writes the mail in the recipient’s saved language', async () => {
    await setDigests({ companyAdmin: 'immediate', clientUser: 'immediate' });
    const { db } = t.deps.database;
    await db.update(users).set({ languageId: 2 }).where(eq(users.id, id.clientUser));
    try {
      const { mails } = await importAndEvaluate([roamer(subA)]);
      const fi = mailText(to(mails, DEMO.clientUser)[0]);
      expect(subject(to(mails, DEMO.clientUser)[0])).toBe('Kulu: 1 uusi hälytys');
      expect(fi).toContain('Korkea: ');
      expect(fi).toContain('verkkovierailua 0,50 €');
      expect(fi).toContain('Muuta tätä profiilissasi: http://kulu.test/#/profile');
      const en = mailText(to(mails, DEMO.companyAdmin)[0]);
      expect(en).toContain('High: ');
      expect(en).toContain('€0.50 roaming');
    } finally {
      await db.update(users).set({ languageId: 1 }).where(eq(users.id, id.clientUser));
    }
  });

  it('sends nothing new when the evaluation or the daily run is repeated', async () => {
    await setDigests({ companyAdmin: 'immediate', clientUser: 'daily' });
    const { invoiceId, mails } = await importAndEvaluate([roamer(subA)]);
    expect(to(mails, DEMO.companyAdmin)).toHaveLength(1);
    expect(to(await daily(), DEMO.clientUser)).toHaveLength(1);
    expect(await mailed(() => evaluateAlertsHandler(t.deps)(job({ invoiceId })))).toHaveLength(0);
    expect(await daily()).toHaveLength(0);
  });

  it('escapes what the data holds in the HTML part', async () => {
    await setDigests({ companyAdmin: 'immediate' });
    const { mails } = await importAndEvaluate([{ ...roamer(subA), userName: '<b>Eve & Co</b>' }]);
    const html = mailText(to(mails, DEMO.companyAdmin)[0]).split('Content-Type: text/html')[1];
    expect(html).toContain('&lt;b&gt;Eve &amp; Co&lt;/b&gt;');
    expect(html).not.toContain('<b>Eve');
  });
});

describe('the digest setting in the profile', () => {
  it('is read and changed through the profile, and an unknown value is refused with a message', async () => {
    const token = await t.login(DEMO.clientUser);
    const put = (payload: Record<string, unknown>) =>
      t.inject({ method: 'PUT', url: '/api/profile/settings', token, payload });
    let res = await put({ alertDigest: 'weekly' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.json().message.length).toBeGreaterThan(0);
    res = await put({ alertDigest: 'off' });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.inject({ method: 'GET', url: '/api/profile', token });
    expect(res.json().alertDigest).toBe('off');
    res = await put({ alertDigest: 'daily' });
    expect(res.statusCode, res.body).toBe(200);
    res = await t.inject({ method: 'GET', url: '/api/profile', token });
    expect(res.json().alertDigest).toBe('daily');
  });

  it('starts after the alerts stored so far when turned on again, so no history is mailed', async () => {
    await setDigests({ clientUser: 'off' });
    await importAndEvaluate([roamer(subA)]);
    const token = await t.login(DEMO.clientUser);
    const res = await t.inject({
      method: 'PUT',
      url: '/api/profile/settings',
      token,
      payload: { alertDigest: 'daily' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(to(await daily(), DEMO.clientUser)).toHaveLength(0);
  });
});
