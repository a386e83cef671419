// Test helpers (imported by tests only): invoice uploads through the real API and waiting for
// their parse. No PDF library is imported here, so a test using them can check that the API
// process never loads one.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestApp } from './helpers.js';

export type FilePart = { name: string; data: Buffer | Uint8Array };

/** A multipart/form-data body with text fields and files under "files". */
export function multipart(files: FilePart[], fields: Record<string, string | number> = {}) {
  const boundary = '----kulu-invoice-boundary';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="files"; filename="${f.name}"\r\ncontent-type: application/pdf\r\n\r\n`,
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

export const uploadFiles = (
  t: TestApp,
  token: string,
  files: FilePart[],
  fields: Record<string, string | number> = {},
) => t.inject({ method: 'POST', url: '/api/invoices', token, ...multipart(files, fields) });

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
export function generateInvoiceOutOfProcess(opts: {
  operator: string;
  subscriptions: number;
  seed: number;
  buyer?: { name?: string; businessId: string | null };
}): Buffer {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const code = `const { generateInvoice } = await import('@kulu/invoices');
const { pdf } = await generateInvoice(${JSON.stringify(opts)});
process.stdout.write(Buffer.from(pdf).toString('base64'));`;
  const out = execFileSync(process.execPath, ['--import', tsx, '--input-type=module', '-e', code], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    maxBuffer: 64 * 1024 * 1024,
    encoding: 'utf8',
  });
  return Buffer.from(out, 'base64');
}
