// Issue 37 item 4: two trickling uploads blocked everyone's uploads for 30 minutes. The instance's
// allowance was filled by declared lengths, so two slow uploads announcing 400 MB each answered
// every other company 429 until UPLOAD_MAX_SECONDS cut them off. Now the bytes actually received
// are counted, per client: a client's uploads in progress hold at most its share, and freed when
// they end. Through a listening server, so that an upload can stall and its connection be aborted.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES, MESSAGES } from '@kulu/shared';
import { users } from '../../db/schema/index.js';
import { clientIdOf, createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { markFailed } from './invoices.service.js';
import { UPLOAD_RETRY_AFTER_SECONDS } from './upload-shares.js';

const MB = 1024 * 1024;
// A client's share is 30 MB, the instance's allowance 41 MB: two uploads declaring 20 MB each
// (one file of the largest size) fill the allowance by their declared lengths.
const ENV = { UPLOAD_IN_FLIGHT_MB: '41', UPLOAD_IN_FLIGHT_PER_CLIENT_MB: '30' };

let t: TestApp;
let port = 0;
const tok = { a: '', b: '' };
let clientA = 0;

beforeAll(async () => {
  t = await createTestApp(ENV);
  // Company A's admin reads Finnish (a signed-in user's own language answers).
  await t.deps.database.db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
  tok.a = await t.login(DEMO.companyAdmin);
  tok.b = await t.login(DEMO.otherCompanyAdmin);
  clientA = await clientIdOf(t, DEMO.companyAdmin);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * POST /api/invoices of one file of `size` bytes over its own connection, with its exact
 * content-length. With `holdAfter`, it sends that many bytes of the file and then waits until
 * `go()` (a slow upload); `abort()` breaks its connection off.
 */
function upload(
  token: string,
  size: number,
  opts: { holdAfter?: number; pdf?: boolean; lang?: string } = {},
) {
  const boundary = '----kulu-upload-shares';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="slow.pdf"\r\n` +
      'content-type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/invoices',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + size + tail.length),
      ...(opts.lang ? { 'accept-language': opts.lang } : {}),
    },
  });
  let go!: () => void;
  const going = new Promise<void>((resolve) => (go = resolve));
  let answered = false;
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          body: JSON.parse(Buffer.concat(parts).toString()),
        });
        req.destroy(); // whatever of the body is still unsent
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
  });
  const write = (b: Buffer) =>
    new Promise<void>((resolve) => {
      if (req.destroyed || req.write(b)) resolve();
      else req.once('drain', resolve);
    });
  void (async () => {
    await write(head);
    const fill = Buffer.alloc(64 * 1024, 0x20);
    const first = Buffer.from(opts.pdf === false ? 'NOT-A-PDF' : '%PDF-1.7\n');
    await write(first);
    for (let sent = first.length; sent < size && !answered && !req.destroyed;) {
      if (sent >= (opts.holdAfter ?? Infinity)) await going;
      const piece = fill.subarray(0, Math.min(fill.length, size - sent));
      sent += piece.length;
      await write(piece);
    }
    if (!answered && !req.destroyed) req.end(tail);
  })();
  answer.catch(() => {}); // an aborted upload has no answer (abort() tells)
  /** Breaks the connection off: 'broken off' unless the upload had been answered. */
  const abort = () => {
    req.destroy();
    return answer.then(
      () => 'answered',
      () => 'broken off',
    );
  };
  return { answer, go, abort };
}

/** Bytes of client A's files streamed in so far (1 MB chunks stored as they arrive). */
const storedChunks = async () => {
  const { rows } = (await t.deps.database.executeSql(
    'select count(*)::int as n from file_chunks c join files f on f.id = c.file_id where f.client_id = $1',
    [clientA],
  )) as { rows: Array<{ n: number }> };
  return rows[0].n;
};

const waitFor = async (what: () => Promise<boolean>) => {
  for (let i = 0; i < 600 && !(await what()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(await what()).toBe(true);
};

const busyFi = { code: 'clientUploadsBusy', message: MESSAGES.clientUploadsBusy.fi };

describe('upload bytes in flight per client (issue 37 item 4)', () => {
  it("a client's two trickling uploads take no other client's room: the other's upload goes through, the client's third is refused 429 in its language, and once the trickles are aborted it uploads again", async () => {
    // Client A: two uploads of 20 MB each, 9 MB sent and then nothing more.
    const slow1 = upload(tok.a, INVOICE_MAX_BYTES, { holdAfter: 9 * MB });
    await waitFor(async () => (await storedChunks()) >= 8);
    const slow2 = upload(tok.a, INVOICE_MAX_BYTES, { holdAfter: 9 * MB });
    await waitFor(async () => (await storedChunks()) >= 16);

    // Client B's upload is let in and read to its end.
    const b = await upload(tok.b, MB).answer;
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ accepted: 1 });

    // A's third would pass A's share (16+ MB received and 20 MB more): refused, in Finnish.
    const third = await upload(tok.a, INVOICE_MAX_BYTES, { lang: 'fi' }).answer;
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject(busyFi);
    expect(third.headers['retry-after']).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));

    // The trickles break off: what they streamed is removed and their bytes freed.
    expect(await Promise.all([slow1.abort(), slow2.abort()])).toEqual(['broken off', 'broken off']);
    await waitFor(async () => (await storedChunks()) === 0);
    const again = await upload(tok.a, INVOICE_MAX_BYTES, { pdf: false }).answer;
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'invoiceNotPdf', refused: 1 });
  }, 120_000);

  it("a client's uploads whose bytes pass its share as they arrive: the one passing it is refused 429 and what it streamed removed, the other goes through", async () => {
    // Both let in (2 MB received, then 17 MB), then the first sends on past A's 30 MB.
    const first = upload(tok.a, INVOICE_MAX_BYTES, { holdAfter: 2 * MB });
    await waitFor(async () => (await storedChunks()) >= 1);
    const second = upload(tok.a, INVOICE_MAX_BYTES, { holdAfter: 15 * MB });
    await waitFor(async () => (await storedChunks()) >= 15);
    first.go();
    const refused = await first.answer;
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject(busyFi);
    expect(refused.headers['retry-after']).toBe(String(UPLOAD_RETRY_AFTER_SECONDS));
    second.go();
    const through = await second.answer;
    expect(through.status).toBe(200);
    const [{ invoiceId }] = through.body.results as Array<{ invoiceId: number }>;
    // Only the second's file is left.
    const { rows } = (await t.deps.database.executeSql(
      `select count(*)::int as n from files where client_id = $1 and kind = 'invoice'
         and not exists (select 1 from invoices i where i.file_id = files.id)`,
      [clientA],
    )) as { rows: Array<{ n: number }> };
    expect(rows[0].n).toBe(0);
    await markFailed(t.deps, invoiceId, 'invalidInvoice', 'not an invoice');
  }, 120_000);
});
