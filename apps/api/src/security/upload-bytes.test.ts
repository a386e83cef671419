// Issue 23, finding 4: upload bytes were unbounded under concurrency. Every request buffered all
// of its up to 20 × 20 MB files in the API process before any check (5 at once → +1.6 GB), and
// four of five were then refused as "previous parse running" after being buffered. Now the
// target, the client's running parse and the bytes in flight are checked before the body is read
// (since issue 37 item 4 the bytes actually received, per client: upload-shares.test.ts), and each
// file streams into storage in chunks with its hash computed on the way.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES, MESSAGES } from '@kulu/shared';
import { fileChunks, invoices } from '../db/schema/index.js';
import { useUploader } from '../test/fixtures.js';
import { postInvoiceStream } from '../test/uploads.js';

// The documented defaults: a client's share of 512 MB (one full 20 × 20 MB upload) of the
// instance's 2048 MB.
const uploader = useUploader();

const MB = 1024 * 1024;
const BOUNDARY = '----kulu-upload-bytes';
/** One random block that every generated file repeats (each file starts with its own tag). */
const BLOCK = crypto.randomBytes(256 * 1024);

type Gen = { name: string; tag: string; size: number; pdf: boolean };

/** The bytes of one generated file, piece by piece (a file is never built whole). */
function* fileBytes(f: Gen): Generator<Buffer> {
  const head = Buffer.from(`${f.pdf ? '%PDF-1.7\n' : 'NOTAPDF\n'}%${f.tag}\n`, 'latin1');
  yield head;
  let left = f.size - head.length;
  while (left > 0) {
    const piece = BLOCK.subarray(0, Math.min(left, BLOCK.length));
    left -= piece.length;
    yield piece;
  }
}

const sha256Of = (f: Gen) => {
  const h = crypto.createHash('sha256');
  for (const piece of fileBytes(f)) h.update(piece);
  return h.digest('hex');
};

/**
 * A multipart body generated as the server pulls it, with its exact length and a count of the
 * bytes the server has read so far. With `holdAfter`, it stops after that many bytes until
 * `open()` is called (an upload still on its way while others arrive).
 */
function streamedUpload(gens: Gen[], holdAfter = Infinity) {
  const headOf = (f: Gen) =>
    Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="files"; filename="${f.name}"\r\n` +
        'content-type: application/pdf\r\n\r\n',
    );
  const crlf = Buffer.from('\r\n');
  const tail = Buffer.from(`--${BOUNDARY}--\r\n`);
  const length = gens.reduce((n, f) => n + headOf(f).length + f.size + crlf.length, tail.length);
  function* pieces() {
    for (const f of gens) {
      yield headOf(f);
      yield* fileBytes(f);
      yield crlf;
    }
    yield tail;
  }
  const counter = { read: 0 };
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const it = pieces();
  const body = new Readable({
    read() {
      const push = () => {
        const next = it.next();
        if (next.done) this.push(null);
        else {
          counter.read += next.value.length;
          this.push(next.value);
        }
      };
      if (counter.read >= holdAfter) void opened.then(push);
      else push();
    },
  });
  return { body, length, counter, open };
}

const files20x20 = (req: string, pdf: boolean): Gen[] =>
  Array.from({ length: 20 }, (_, i) => ({
    name: `r${req}-${i}.pdf`,
    tag: `${req}-${i}`,
    size: INVOICE_MAX_BYTES,
    pdf,
  }));

const post = (gens: Gen[], lang?: string, holdAfter?: number) => {
  const up = streamedUpload(gens, holdAfter);
  const res = postInvoiceStream(
    uploader.t,
    uploader.token,
    { body: up.body, boundary: BOUNDARY, length: up.length },
    lang ? { 'accept-language': lang } : {},
  );
  return { res, up };
};

/** Peak RSS growth (MB) while `work` runs, sampled by a timer; the sampling is not a timing test. */
async function peakGrowthMb(work: () => Promise<unknown>) {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return (peak - base) / MB;
}

describe('upload bytes under concurrency (issue 23, finding 4)', () => {
  it("five concurrent 20 × 20 MB uploads of one client: one streams through, four are refused 429 before their bodies are read (they would pass the client's share), and the server grows < 300 MB", async () => {
    let answers: Array<{ status: number; body: Record<string, unknown>; read: number; length: number }> = [];
    const growth = await peakGrowthMb(async () => {
      // The first is on its way (120 MB of it received) while the four others arrive: 120 MB and
      // another 400 MB would pass the client's 512 MB.
      const first = post(files20x20('a', false), undefined, 120 * MB);
      while (first.up.counter.read < 120 * MB) await new Promise((r) => setImmediate(r));
      const others = ['b', 'c', 'd', 'e'].map((r) => post(files20x20(r, false)));
      await Promise.all(others.map((o) => o.res));
      first.up.open();
      answers = await Promise.all(
        [first, ...others].map(async ({ res, up }) => {
          const r = await res;
          return { status: r.statusCode, body: r.json(), read: up.counter.read, length: up.length };
        }),
      );
    });
    const busy = answers.filter((a) => a.status === 429);
    expect(busy).toHaveLength(4);
    for (const a of busy) {
      expect(a.body).toMatchObject({ code: 'clientUploadsBusy', message: MESSAGES.clientUploadsBusy.en });
      // Refused before the body was read: no more than what the stream had buffered ahead.
      expect(a.read).toBeLessThan(4 * MB);
    }
    const [through] = answers.filter((a) => a.status !== 429);
    expect(through.read).toBe(through.length);
    expect(through.body).toMatchObject({ accepted: 0, refused: 20, code: 'invoiceNotPdf' });
    expect(growth).toBeLessThan(300);
  }, 600_000);

  it('streams each PDF into storage in 1 MB chunks with its SHA-256 computed on the way, and drops a file past 20 MB as it arrives', async () => {
    const gens: Gen[] = [
      { name: 'one.pdf', tag: 'one', size: INVOICE_MAX_BYTES, pdf: true },
      { name: 'two.pdf', tag: 'two', size: INVOICE_MAX_BYTES, pdf: true },
      { name: 'big.pdf', tag: 'big', size: INVOICE_MAX_BYTES + 1, pdf: true },
    ];
    let res!: Awaited<ReturnType<typeof post>['res']>;
    const growth = await peakGrowthMb(async () => {
      res = await post(gens).res;
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { code: string }) => r.code)).toEqual([
      'invoiceUploaded',
      'invoiceUploaded',
      'invoiceTooLarge',
    ]);
    const { db } = uploader.t.deps.database;
    for (const [i, r] of body.results.slice(0, 2).entries()) {
      const [inv] = await db
        .select({ sha: invoices.fileSha256, fileId: invoices.fileId, size: invoices.fileSize })
        .from(invoices)
        .where(eq(invoices.id, r.invoiceId));
      expect(inv).toMatchObject({ sha: sha256Of(gens[i]), size: INVOICE_MAX_BYTES });
      const chunks = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(fileChunks)
        .where(eq(fileChunks.fileId, inv.fileId));
      expect(chunks[0].n).toBe(20);
      const file = await uploader.t.inject({
        method: 'GET',
        url: `/api/invoices/${r.invoiceId}/file`,
        token: uploader.token,
      });
      expect(crypto.createHash('sha256').update(file.rawPayload).digest('hex')).toBe(inv.sha);
    }
    // Nothing is left of the file that was too large (no file row without an invoice).
    const [orphans] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`files f`)
      .where(
        sql`f.client_id = ${uploader.clientId} and f.kind = 'invoice' and not exists (select 1 from invoices i where i.file_id = f.id)`,
      );
    expect(orphans.n).toBe(0);
    expect(growth).toBeLessThan(300);
  }, 300_000);

  it("refuses an upload while the client's previous parse runs, before reading its body, and mails the caller when it is done", async () => {
    // The invoices of the test before are still parsing (no jobs run in this file).
    const { res, up } = post(files20x20('f', true), 'fi');
    const r = await res;
    expect(r.statusCode).toBe(409);
    expect(r.json()).toMatchObject({ code: 'previousParseRunning' });
    expect(r.json().results).toBeUndefined();
    expect(up.counter.read).toBeLessThan(4 * MB);
    const [running] = await uploader.t.deps.database.db
      .select({ notify: invoices.notifyUserIds })
      .from(invoices)
      .where(eq(invoices.uploadState, 'in_progress'))
      .orderBy(desc(invoices.id));
    expect(running.notify.length).toBeGreaterThan(0);
  }, 120_000);
});
