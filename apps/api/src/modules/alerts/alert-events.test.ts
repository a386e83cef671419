import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { alerts, subCompanies } from '../../db/schema/index.js';
import {
  clientIdOf,
  createTestApp,
  DEMO,
  demoTokens,
  operatorIdOf,
  type TestApp,
} from '../../test/helpers.js';
import { evaluateInvoiceAlerts } from './evaluate.service.js';
import { writeTestInvoice } from './test-invoices.js';

/**
 * The bell's push (issue 37 item 14): GET /api/alerts/events on a listening server, read as the web
 * reads it (fetch with the bearer token), on PGlite and on PostgreSQL (where a second instance's
 * write reaches this one's stream through LISTEN/NOTIFY).
 */
let t: TestApp;
let base: string;
const tok: Record<string, string> = {};
let pohjola: number;
let saimaa: number;
let elisa: number;
let seq = 0;

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  Object.assign(tok, await demoTokens(t, ['companyAdmin', 'otherCompanyAdmin', 'admin']));
  pohjola = (await clientIdOf(t, DEMO.companyAdmin))!;
  saimaa = (await clientIdOf(t, DEMO.otherCompanyAdmin))!;
  elisa = await operatorIdOf(t, 'Elisa');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

interface Count {
  open: number;
  high: number;
}

/** A stream of the bell's events: the `count` events in order, as they come. */
async function stream(token: string, shown: number, server = base) {
  const ctl = new AbortController();
  const res = await fetch(`${server}/api/alerts/events?open=${shown}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: ctl.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const counts: Count[] = [];
  let ended = false;
  const reading = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let at: number;
        while ((at = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, at);
          buf = buf.slice(at + 2);
          const data = /^event: count\ndata: (.*)$/m.exec(block);
          if (data) counts.push(JSON.parse(block.split('data: ')[1]) as Count);
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  return {
    counts,
    get ended() {
      return ended;
    },
    /** Waits until `n` count events came (at most `ms`). */
    async until(n: number, ms = 5000) {
      const end = Date.now() + ms;
      while (counts.length < n && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return counts;
    },
    async close() {
      ctl.abort();
      await reading;
    },
  };
}

const bell = async (token: string) =>
  (await t.inject({ method: 'GET', url: '/api/alerts/count', token })).json() as Count;

/** An evaluated invoice of `clientId` with `n` roaming subscriptions (n alerts), through `db`. */
async function roaming(clientId: number, n: number, db = t.deps.database.db) {
  const [sub] = await db
    .insert(subCompanies)
    .values({ clientId, name: `Stream case ${seq++}` })
    .returning({ id: subCompanies.id });
  const id = await writeTestInvoice(db, {
    clientId,
    operatorId: elisa,
    month: '2025-04-01',
    subCompanyId: sub.id,
    subs: Array.from({ length: n }, (_, i) => ({
      phone: `+35845${seq}${String(i).padStart(5, '0')}`,
      subCompanyId: sub.id,
      lines: [
        { label: 'Test plan', category: 'monthly_fee', amount: 20 },
        { label: 'Datasiirto muualla', category: 'data', region: 'world', amount: 30 },
      ],
    })),
  });
  expect(await evaluateInvoiceAlerts(db, id)).toBe(n);
  return id;
}

describe('the bell’s stream', () => {
  it('pushes the new count within moments of alerts raised, acknowledged and deleted with their invoice', async () => {
    const start = await bell(tok.companyAdmin);
    const s = await stream(tok.companyAdmin, start.open);
    try {
      // Nothing differs yet: nothing is sent.
      await new Promise((r) => setTimeout(r, 300));
      expect(s.counts).toEqual([]);

      const invoice = await roaming(pohjola, 3);
      expect((await s.until(1)).at(-1)).toEqual({ open: start.open + 3, high: start.high + 3 });

      const [one] = await t.deps.database.db.select().from(alerts).where(eq(alerts.invoiceId, invoice));
      const ack = await t.inject({
        method: 'POST',
        url: '/api/alerts/acknowledge',
        token: tok.companyAdmin,
        payload: { ids: [one.id] },
      });
      expect(ack.statusCode, ack.body).toBe(200);
      expect((await s.until(2)).at(-1)?.open).toBe(start.open + 2);

      const del = await t.inject({
        method: 'DELETE',
        url: `/api/invoices/${invoice}`,
        token: tok.companyAdmin,
      });
      expect(del.statusCode, del.body).toBe(200);
      expect((await s.until(3)).at(-1)?.open).toBe(start.open);
    } finally {
      await s.close();
    }
  });

  it('tells a company nothing of another company’s alerts; the provider admin hears both', async () => {
    const mine = await stream(tok.companyAdmin, (await bell(tok.companyAdmin)).open);
    const provider = await stream(tok.admin, (await bell(tok.admin)).open);
    try {
      await roaming(saimaa, 2);
      expect((await provider.until(1)).length).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(mine.counts).toEqual([]);
    } finally {
      await mine.close();
      await provider.close();
    }
  });

  it('sends the count at once when the bell shows another', async () => {
    const s = await stream(tok.otherCompanyAdmin, 999_999);
    expect((await s.until(1))[0]).toEqual(await bell(tok.otherCompanyAdmin));
    await s.close();
  });

  it('ends its open streams when the server closes, without waiting for them', async () => {
    const own = await createTestApp();
    const server = await own.app.listen({ host: '127.0.0.1', port: 0 });
    const s = await stream(await own.login(DEMO.companyAdmin), 999_999, server);
    await s.until(1);
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    const until = Date.now() + 2000;
    while (!s.ended && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
    expect(s.ended).toBe(true);
  }, 60_000);

  it('reaches this instance’s stream from another instance’s write (PostgreSQL LISTEN/NOTIFY)', async () => {
    const url = t.deps.database.url;
    if (!url) {
      // PGlite: one process, one instance (the tests above).
      expect(t.deps.database.kind).toBe('pglite');
      return;
    }
    const other = await openDatabase({ url });
    const start = await bell(tok.companyAdmin);
    const s = await stream(tok.companyAdmin, start.open);
    try {
      await roaming(pohjola, 2, other.db);
      expect((await s.until(1)).at(-1)?.open).toBe(start.open + 2);
    } finally {
      await s.close();
      await other.close();
    }
  });

  it('refuses a stream without the counts shown (400, never left open) and an anonymous caller (401)', async () => {
    const bare = await t.inject({ method: 'GET', url: '/api/alerts/events', token: tok.companyAdmin });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().fields).toHaveProperty('open');
    const neg = await t.inject({ method: 'GET', url: '/api/alerts/events?open=-1', token: tok.companyAdmin });
    expect(neg.statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: '/api/alerts/events?open=0' })).statusCode).toBe(401);
  });
});
