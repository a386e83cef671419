// Test helper (imported by tests only): the uploader of the upload and storage tests, the demo
// company admin on a test app of its own, with the steps those tests take alike.
import { afterAll, beforeAll } from 'vitest';
import { markFailed } from '../modules/invoices/invoices.service.js';
import { clientIdOf, createTestApp, DEMO, type TestApp } from './helpers.js';
import { storedBytes, uploadFiles } from './uploads.js';

/** The demo company admin signed in on the file's test app, and their client. */
export class Uploader {
  t!: TestApp;
  token!: string;
  clientId!: number;

  /** Bytes of the client's stored invoice files. */
  stored = (): Promise<number> => storedBytes(this.t, this.clientId);

  /** The clock moves on (and the uploader signs in again: a session does not last days). */
  async later(ms: number): Promise<void> {
    this.t.advanceClock(ms);
    this.token = await this.t.login(DEMO.companyAdmin);
  }

  /** Uploads a file; an accepted one fails (as its parse would) so the next upload may start. */
  async uploadAndFail(data: Buffer, name = 'junk.pdf') {
    const res = await uploadFiles(this.t, this.token, [{ name, data }]);
    if (res.statusCode === 200) {
      const id = res.json().results[0].invoiceId as number;
      await markFailed(this.t.deps, id, 'invalidInvoice', 'not an invoice');
    }
    return res;
  }
}

/** The uploader on a test app with `env`: created before the file's tests, closed after. */
export function useUploader(env: Record<string, string> = {}): Uploader {
  const up = new Uploader();
  beforeAll(async () => {
    up.t = await createTestApp(env);
    up.token = await up.t.login(DEMO.companyAdmin);
    up.clientId = await clientIdOf(up.t, DEMO.companyAdmin);
  }, 120_000);
  afterAll(async () => {
    await up.t?.close();
  });
  return up;
}
