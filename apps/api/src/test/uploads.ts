// Test helpers (imported by tests only): invoice uploads through the real API and waiting for
// their parse. No PDF library is imported here, so a test using them can check that the API
// process never loads one.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { files } from '../db/schema/index.js';
import type { TestApp } from './helpers.js';

export type FilePart = { name: string; data: Buffer | Uint8Array };

/** A multipart/form-data body with text fields and files under "files" (or `opts.field`), as PDFs (or `opts.type`). */
export function multipart(
  files: FilePart[],
  fields: Record<string, string | number> = {},
  opts: { field?: string; type?: string } = {},
) {
  const boundary = '----kulu-invoice-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${opts.field ?? 'files'}"; filename="${f.name}"\r\ncontent-type: ${opts.type ?? 'application/pdf'}\r\n\r\n`,
      ),
      Buffer.from(f.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat(parts),
  };
}

/** A file of `size` bytes (1 MiB) that reads as a PDF by its first bytes but is no invoice (its parse would fail). */
export const junkPdf = (tag: string, size = 1024 * 1024) => {
  const head = Buffer.from(`%PDF-1.7\n%${tag}\n`, 'latin1');
  return Buffer.concat([head, crypto.randomBytes(size - head.length)]);
};

/** Bytes of a client's stored files. */
export const storedBytes = async (t: Pick<TestApp, 'deps'>, clientId: number) => {
  const [r] = await t.deps.database.db
    .select({ n: sql<number>`coalesce(sum(${files.size}), 0)::float8` })
    .from(files)
    .where(eq(files.clientId, clientId));
  return r.n;
};

/** A multipart/form-data body with text fields and at most one file under "file" (the single-file uploads). */
export const multipartFile = (fields: Record<string, string | number>, file?: FilePart) =>
  multipart(file ? [file] : [], fields, { field: 'file', type: 'application/octet-stream' });

/** POST /api/invoices with the target (clientId, subCompanyId) in the query, as the web app sends it. */
export const uploadFiles = (
  t: TestApp,
  token: string,
  files: FilePart[],
  target: Record<string, string | number> = {},
) =>
  t.inject({
    method: 'POST',
    url: `/api/invoices${uploadQuery(target)}`,
    token,
    ...multipart(files),
  });

/**
 * POST /api/invoices of one file of `size` bytes that starts as a PDF, generated as the server
 * pulls it (never built whole), with its exact content-length. `read` counts the bytes the server
 * has taken: a refusal before the body is read leaves it at what the stream buffered ahead. With
 * `stallAfter`, the body stops after that many bytes and never goes on (a client gone quiet); with
 * `pdf: false` the file does not start as a PDF (it is read to its end and dropped, nothing stored).
 */
export function uploadStreamed(
  t: TestApp,
  token: string,
  size: number,
  opts: { headers?: Record<string, string>; stallAfter?: number; pdf?: boolean } = {},
) {
  const boundary = '----kulu-streamed-upload';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="streamed.pdf"\r\n` +
      `content-type: application/pdf\r\n\r\n${opts.pdf === false ? 'NOT-A-PDF' : '%PDF-1.7\n'}`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const fill = Buffer.alloc(64 * 1024, 0x20);
  const length = head.length + (size - 9) + tail.length;
  const counter = { read: 0 };
  let body = size - 9; // after "%PDF-1.7\n" (or "NOT-A-PDF")
  let ended = false;
  const payload = new Readable({
    read() {
      if (counter.read >= (opts.stallAfter ?? Infinity)) return;
      let piece: Buffer | null;
      if (counter.read === 0) piece = head;
      else if (body > 0) {
        piece = fill.subarray(0, Math.min(body, fill.length));
        body -= piece.length;
      } else if (!ended) {
        ended = true;
        piece = tail;
      } else piece = null;
      if (piece) counter.read += piece.length;
      this.push(piece);
    },
  });
  const res = postInvoiceStream(t, token, { body: payload, boundary, length }, opts.headers);
  return { res, counter, length };
}

/**
 * POST /api/invoices with a multipart body (its `boundary`, of `length` bytes) that the server reads
 * as it streams, with any other `headers`.
 */
export function postInvoiceStream(
  t: Pick<TestApp, 'inject'>,
  token: string,
  upload: { body: Readable; boundary: string; length: number },
  headers: Record<string, string> = {},
) {
  return t.inject({
    method: 'POST',
    url: '/api/invoices',
    token,
    headers: {
      'content-type': `multipart/form-data; boundary=${upload.boundary}`,
      'content-length': String(upload.length),
      ...headers,
    },
    payload: upload.body,
  });
}

/** `?clientId=…&subCompanyId=…` of an upload's target ('' without one). */
export function uploadQuery(target: Record<string, string | number>): string {
  const q = new URLSearchParams(Object.entries(target).map(([k, v]) => [k, String(v)])).toString();
  return q ? `?${q}` : '';
}

/** Polls GET /api/invoices/:id until the invoice is no longer in progress. */
export async function settled(t: TestApp, token: string, id: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.inject({ method: 'GET', url: `/api/invoices/${id}`, token });
    if (res.statusCode !== 200) throw new Error(`GET invoice ${id}: ${res.statusCode} ${res.body}`);
    const body = res.json();
    if (body.uploadState !== 'in_progress') return body;
    if (Date.now() > until) throw new Error(`invoice ${id} still in progress`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * An operator invoice PDF generated in a separate node process, so that the test process itself
 * never loads the invoice package (and its PDF library).
 */
export function generateInvoiceOutOfProcess(
  opts: {
    operator: string;
    subscriptions: number;
    seed: number;
    buyer?: { name?: string; businessId: string | null };
  },
  /** `finvoice`: the same invoice as a Finvoice e-invoice (XML). */
  format: 'pdf' | 'finvoice' = 'pdf',
): Buffer {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const make =
    format === 'pdf'
      ? `(await generateInvoice(${JSON.stringify(opts)})).pdf`
      : `generateFinvoice(${JSON.stringify(opts)}).xml`;
  const code = `const { generateInvoice, generateFinvoice } = await import('@kulu/invoices');
const file = ${make};
process.stdout.write(Buffer.from(file).toString('base64'));`;
  const out = execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return Buffer.from(out, 'base64');
}

/**
 * A generated PDF invoice uploaded as `<operator>.pdf` to the caller's client, and the invoice once
 * read (as GET /api/invoices/:id answers it); an upload that is not answered 200 throws.
 */
export async function uploadGenerated(
  t: TestApp,
  token: string,
  opts: Parameters<typeof generateInvoiceOutOfProcess>[0],
) {
  const data = generateInvoiceOutOfProcess(opts);
  const res = await uploadFiles(t, token, [{ name: `${opts.operator}.pdf`, data }]);
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return settled(t, token, res.json().results[0].invoiceId as number);
}

/**
 * Pohjola's invoices of `operator` for `months` (YYYY-MM, dated the 15th, seeds `seed`, `seed + 1`,
 * …, no cost centers printed) uploaded in one request to `target` (e.g. a sub-company), each waited
 * for; throws unless every one is uploaded. Returns their ids in the order of `months`. The PDFs
 * are made in this process (the invoice package is loaded only when this is called).
 */
export async function uploadMonths(
  t: TestApp,
  token: string,
  opts: { operator: string; subscriptions: number; seed: number; months: readonly string[] },
  target: Record<string, string | number> = {},
): Promise<number[]> {
  const { generateInvoice } = await import('@kulu/invoices');
  const { BUYER } = await import('./helpers.js');
  const { operator, subscriptions, seed, months } = opts;
  const pdfs = await Promise.all(
    months.map(async (m, i) => ({
      name: `${operator}-${seed}-${m}.pdf`,
      data: (
        await generateInvoice({
          operator,
          buyer: BUYER.pohjola,
          subscriptions,
          seed: seed + i,
          invoiceDate: `${m}-15`,
          costCenters: false,
        })
      ).pdf,
    })),
  );
  const res = await uploadFiles(t, token, pdfs, target);
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  const ids = (res.json().results as Array<{ invoiceId: number }>).map((r) => r.invoiceId);
  if (ids.length !== months.length) throw new Error(`upload: ${res.body}`);
  for (const id of ids) {
    const done = await settled(t, token, id);
    if (done.uploadState !== 'uploaded')
      throw new Error(`invoice ${id}: ${done.errorCode}: ${done.errorDetail}`);
  }
  return ids;
}
