import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { generateImageOnlyPdf, generatePlainPdf } from '@kulu/invoices';
import { INVOICE_SORTABLE } from '@kulu/shared';
import {
  clients,
  costElements,
  invoices,
  monthlyFacts,
  subscriptions,
  users,
} from '../../db/schema/index.js';
import { sendUploadReminders } from './upload-reminders.js';
import { DEMO, mailText } from '../../test/helpers.js';
import { forPohjola } from '../../test/generated.js';
import { useInvoiceTestApp } from '../../test/fixtures.js';
import { settled as settledIn, uploadFiles, type FilePart } from '../../test/uploads.js';
import { importTestHooks } from './import.service.js';
import { importFootprint } from './invoices.service.js';

const app = useInvoiceTestApp(60_000);
afterEach(() => {
  delete importTestHooks.afterLines;
});

const upload = (
  files: FilePart[],
  token = app.tok.companyAdmin,
  fields: Record<string, string | number> = {},
) => uploadFiles(app.t, token, files, fields);

/** Polls GET /api/invoices/:id until the parse is done. */
const settled = (id: number, token = app.tok.companyAdmin, timeoutMs = 60_000) =>
  settledIn(app.t, token, id, timeoutMs);

async function until<T>(fn: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('invoice upload and parse', () => {
  it('moves an upload from in progress to uploaded and writes lines, subscriptions and facts', async () => {
    const { pdf, expected } = await forPohjola({ operator: 'elisa', subscriptions: 8, seed: 11 });
    const res = await upload([{ name: 'elisa-11.pdf', data: pdf }]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ accepted: 1, refused: 0 });
    expect(body.results[0]).toMatchObject({ fileName: 'elisa-11.pdf', status: 'accepted' });
    const id = body.results[0].invoiceId as number;

    const first = await app.t.inject({
      method: 'GET',
      url: `/api/invoices/${id}`,
      token: app.tok.companyAdmin,
    });
    expect(first.json()).toMatchObject({ uploadState: 'in_progress', parsingStatus: 'pending' });

    const done = await settled(id);
    expect(done).toMatchObject({
      uploadState: 'uploaded',
      parsingStatus: 'completed',
      operatorName: 'Elisa',
      invoiceNumber: expected.invoiceNumber,
      invoiceDate: expected.invoiceDate,
      totalExclVat: expected.totalExclVat.toFixed(2),
      totalInclVat: expected.totalInclVat.toFixed(2),
      subscriptionCount: expected.subscriptions.length,
      errorCode: null,
    });
    const lineCount =
      expected.subscriptions.reduce((n, s) => n + s.lines.length, 0) + expected.otherLines.length;
    expect(done.lineCount).toBe(lineCount);

    const { db } = app.t.deps.database;
    const subs = await db.select().from(subscriptions).where(eq(subscriptions.clientId, app.pohjola));
    expect(subs.map((s) => s.phoneNumber).sort()).toEqual(
      expected.subscriptions.map((s) => s.phoneNumber).sort(),
    );
    expect(subs.every((s) => s.firstSeenMonth === `${expected.invoiceDate.slice(0, 7)}-01`)).toBe(true);
    // The facts add up to the invoice total to the cent (numeric sum in the database).
    const [{ total }] = await db
      .select({ total: sql<string>`sum(${monthlyFacts.amount})::text` })
      .from(monthlyFacts)
      .where(eq(monthlyFacts.invoiceId, id));
    expect(total).toBe(expected.totalExclVat.toFixed(2));
    // New labels became cost elements; usage labels were auto-categorized by the category rule.
    const elements = await db.select().from(costElements).where(eq(costElements.name, 'Puhelut kotimaahan'));
    if (elements.length) expect(elements[0].status).toBe('auto_categorized');

    const list = await app.t.inject({
      method: 'GET',
      url: '/api/invoices?pageSize=5',
      token: app.tok.companyAdmin,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({ id, invoiceNumber: expected.invoiceNumber });

    const file = await app.t.inject({
      method: 'GET',
      url: `/api/invoices/${id}/file`,
      token: app.tok.companyAdmin,
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(Buffer.from(pdf))).toBe(true);
  }, 60_000);

  it('refuses an invoice that was already parsed (same file at once, same operator and number after parsing)', async () => {
    const { pdf } = await forPohjola({ operator: 'elisa', subscriptions: 8, seed: 11 });
    const same = await upload([{ name: 'again.pdf', data: pdf }]);
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ code: 'invoiceAlreadyParsed', message: 'Invoice already parsed' });
    expect(same.json().results[0]).toMatchObject({ status: 'refused', code: 'invoiceAlreadyParsed' });

    // Same invoice, other bytes (another page size): refused by the parse job.
    const before = await importFootprint(app.t.deps.database.db);
    const other = await forPohjola({ operator: 'elisa', subscriptions: 8, seed: 11, pageSize: 'LEGAL' });
    const res = await upload([{ name: 'legal.pdf', data: other.pdf }]);
    expect(res.statusCode).toBe(200);
    const done = await settled(res.json().results[0].invoiceId);
    expect(done).toMatchObject({ uploadState: 'failed', errorCode: 'invoiceAlreadyParsed' });
    expect(await importFootprint(app.t.deps.database.db)).toEqual(before);
  }, 60_000);

  it('refuses a new upload while a previous parse is running and mails the user when it is done', async () => {
    const a = await forPohjola({ operator: 'telia', subscriptions: 30, seed: 21 });
    const b = await forPohjola({ operator: 'elisa', subscriptions: 3, seed: 22 });
    const first = await upload([{ name: 'telia.pdf', data: a.pdf }]);
    expect(first.statusCode).toBe(200);
    const second = await upload([{ name: 'elisa.pdf', data: b.pdf }], app.tok.clientUser, {});
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'previousParseRunning',
      message: 'Previous request is still parsing, you will be notified by email when it is done',
    });
    expect(await settled(first.json().results[0].invoiceId)).toMatchObject({ uploadState: 'uploaded' });
    const mail = await until(() => app.t.mails.find((m) => m.to.includes(DEMO.clientUser)));
    expect(mailText(mail)).toMatch(/invoice parsing is done/);
    expect(mailText(mail)).toContain(a.expected.invoiceNumber);
    // Now the upload goes through.
    const again = await upload([{ name: 'elisa.pdf', data: b.pdf }], app.tok.clientUser);
    expect(again.statusCode).toBe(200);
    expect(await settled(again.json().results[0].invoiceId, app.tok.clientUser)).toMatchObject({
      uploadState: 'uploaded',
      operatorName: 'Elisa',
    });
  }, 90_000);

  it('accepts several files in one request', async () => {
    const x = await forPohjola({ operator: 'elisa', subscriptions: 2, seed: 31 });
    const y = await forPohjola({ operator: 'telia', subscriptions: 2, seed: 32 });
    const res = await upload([
      { name: 'x.pdf', data: x.pdf },
      { name: 'y.pdf', data: y.pdf },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ accepted: 2, refused: 0 });
    for (const r of res.json().results)
      expect(await settled(r.invoiceId)).toMatchObject({ uploadState: 'uploaded' });
  }, 90_000);

  it('leaves nothing behind when an import fails midway', async () => {
    const { pdf } = await forPohjola({ operator: 'telia', subscriptions: 12, seed: 41 });
    const before = await importFootprint(app.t.deps.database.db);
    let calls = 0;
    importTestHooks.afterLines = () => {
      calls++;
      throw new Error('simulated crash after the lines were written');
    };
    const res = await upload([{ name: 'crash.pdf', data: pdf }]);
    const done = await settled(res.json().results[0].invoiceId);
    expect(calls).toBeGreaterThanOrEqual(1);
    expect(done).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceFailed',
      errorMessage: 'The invoice could not be imported',
      // the error itself is for the server log, not the company
      errorDetail: null,
      lineCount: 0,
      invoiceNumber: null,
    });
    expect(await importFootprint(app.t.deps.database.db)).toEqual(before);
  }, 60_000);

  it("fails at once when the database refuses the data: the reason in the user's language, no SQL or ids, no retries", async () => {
    const { db } = app.t.deps.database;
    const { pdf } = await forPohjola({ operator: 'telia', subscriptions: 3, seed: 42 });
    const before = await importFootprint(db);
    let calls = 0;
    importTestHooks.afterLines = async (invoiceId, tx) => {
      calls++;
      // a value the database refuses (SQLSTATE 22P02), as a too long or malformed value would be
      await tx.execute(sql`select ${`invoice ${invoiceId}`}::integer`);
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await upload([{ name: 'refused-data.pdf', data: pdf }]);
      const id = res.json().results[0].invoiceId as number;
      const done = await settled(id);
      expect(done).toMatchObject({
        uploadState: 'failed',
        errorCode: 'invoiceImportRefused',
        errorMessage: expect.stringMatching(/^The invoice holds values that cannot be stored/),
        errorDetail: null,
        lineCount: 0,
      });
      expect(JSON.stringify(done)).not.toMatch(/integer|select|invalid input syntax|22P02/i);
      expect(calls).toBe(1);
      // the details are in the server log
      expect(logged.mock.calls.flat().map(String).join(' ')).toMatch(/Failed query: select/);
      expect(await importFootprint(db)).toEqual(before);
      await db.update(users).set({ languageId: 2 }).where(eq(users.email, DEMO.companyAdmin));
      const fi = await app.t.inject({
        method: 'GET',
        url: `/api/invoices/${id}`,
        token: await app.t.login(DEMO.companyAdmin),
      });
      expect(fi.json().errorMessage).toMatch(/^Laskussa on arvoja, joita ei voi tallentaa/);
    } finally {
      logged.mockRestore();
      await db.update(users).set({ languageId: 1 }).where(eq(users.email, DEMO.companyAdmin));
    }
  }, 60_000);

  it("never shows the server's file-system paths in a failed invoice's reason", async () => {
    const { pdf } = await forPohjola({ operator: 'telia', subscriptions: 2, seed: 43 });
    importTestHooks.afterLines = () => {
      throw new Error(
        "the PDF cannot be read: Cannot find module '/srv/kulu/apps/api/dist/mupdf-hook.mjs' imported from file:///srv/kulu/apps/api/dist/mupdf-pages.mjs",
      );
    };
    const res = await upload([{ name: 'paths.pdf', data: pdf }]);
    const done = await settled(res.json().results[0].invoiceId);
    expect(done).toMatchObject({ uploadState: 'failed', errorCode: 'invoiceFailed', errorDetail: null });
    expect(JSON.stringify(done)).not.toMatch(/srv|mupdf/);
  }, 60_000);

  it('gives a clear error for each broken input and leaves the database unchanged', async () => {
    const { pdf } = await forPohjola({ operator: 'elisa', subscriptions: 3, seed: 51 });
    const { db } = app.t.deps.database;
    const before = await importFootprint(db);
    const [{ n: invoicesBefore }] = await db.select({ n: sql<number>`count(*)::int` }).from(invoices);

    const refusedAtOnce = await upload([
      { name: 'setup.exe.pdf', data: Buffer.concat([Buffer.from('MZ\x90\x00'), Buffer.alloc(2000, 7)]) },
      { name: 'empty.pdf', data: Buffer.alloc(0) },
    ]);
    expect(refusedAtOnce.statusCode).toBe(400);
    expect(refusedAtOnce.json().results).toEqual([
      {
        fileName: 'setup.exe.pdf',
        status: 'refused',
        code: 'invoiceNotPdf',
        message: 'Invoice must be a PDF or a Finvoice e-invoice',
      },
      {
        fileName: 'empty.pdf',
        status: 'refused',
        code: 'invoiceNotPdf',
        message: 'Invoice must be a PDF or a Finvoice e-invoice',
      },
    ]);
    const [{ n: invoicesAfterRefusal }] = await db.select({ n: sql<number>`count(*)::int` }).from(invoices);
    expect(invoicesAfterRefusal).toBe(invoicesBefore);

    const corpus: Array<[string, Uint8Array, string]> = [
      ['truncated.pdf', pdf.subarray(0, Math.floor(pdf.length / 3)), 'invoiceUnreadable'],
      [
        'encrypted.pdf',
        await generatePlainPdf(['Salainen'], { encryptWithPassword: 'x' }),
        'invoiceEncrypted',
      ],
      ['scan.pdf', await generateImageOnlyPdf(), 'invalidInvoice'],
      ['letter.pdf', await generatePlainPdf(['Hei, tämä on kirje eikä lasku.']), 'invalidInvoice'],
    ];
    const res = await upload(corpus.map(([name, data]) => ({ name, data })));
    expect(res.statusCode).toBe(200);
    const results = res.json().results as Array<{ invoiceId: number; fileName: string }>;
    for (const [i, [name, , code]] of corpus.entries()) {
      const done = await settled(results[i].invoiceId);
      expect(done, name).toMatchObject({ uploadState: 'failed', errorCode: code, lineCount: 0 });
      expect(done.errorMessage, name).toBeTruthy();
      expect(done.errorDetail, name).toBeTruthy();
    }
    expect(await importFootprint(db)).toEqual(before);
  }, 90_000);

  it('refuses a file over 20 MB with a clear message', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(20 * 1024 * 1024 + 10, 32)]);
    const res = await upload([{ name: 'huge.pdf', data: big }]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(413);
    expect(res.json()).toMatchObject({ code: 'invoiceTooLarge' });
    expect(res.json().results[0].message).toMatch(/20 MB/);
    // Streamed into storage up to the limit, then removed: nothing of it is kept.
  }, 90_000);
});

describe('invoice tenancy and access', () => {
  it("answers 404 for another client's invoice and lists only the caller's own", async () => {
    const { db } = app.t.deps.database;
    const [inv] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.clientId, app.pohjola))
      .limit(1);
    const other = await app.t.inject({
      method: 'GET',
      url: `/api/invoices/${inv.id}`,
      token: app.tok.otherCompanyAdmin,
    });
    expect(other.statusCode).toBe(404);
    const file = await app.t.inject({
      method: 'GET',
      url: `/api/invoices/${inv.id}/file`,
      token: app.tok.otherCompanyAdmin,
    });
    expect(file.statusCode).toBe(404);
    const list = await app.t.inject({
      method: 'GET',
      url: '/api/invoices',
      token: app.tok.otherCompanyAdmin,
    });
    expect(list.json().items.every((i: { clientId: number }) => i.clientId !== app.pohjola)).toBe(true);
    const admin = await app.t.inject({ method: 'GET', url: `/api/invoices/${inv.id}`, token: app.tok.admin });
    expect(admin.statusCode).toBe(200);
  });

  it('gives every page of the list the number of matching invoices, also a page past the end', async () => {
    const { db } = app.t.deps.database;
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoices)
      .where(eq(invoices.clientId, app.pohjola));
    expect(n).toBeGreaterThan(1);
    const page = async (p: number) =>
      (
        await app.t.inject({
          method: 'GET',
          url: `/api/invoices?pageSize=1&page=${p}`,
          token: app.tok.companyAdmin,
        })
      ).json() as { items: { id: number }[]; total: number };
    const [first, last, past] = await Promise.all([page(1), page(n), page(n + 1)]);
    expect([first.total, last.total, past.total]).toEqual([n, n, n]);
    expect([first.items.length, last.items.length, past.items.length]).toEqual([1, 1, 0]);
    expect(first.items[0]!.id).not.toBe(last.items[0]!.id);
  });

  it('answers the same list for every sort, order and filter, beyond the number of statements it keeps', async () => {
    // 10 sorts × 2 orders × 4 filters = 80 shapes: more than the 64 prepared ones, so the last run
    // unprepared. Each must list exactly the invoices its filter matches, and count them.
    const { db } = app.t.deps.database;
    const mine = await db
      .select({ id: invoices.id, uploadState: invoices.uploadState, parsingStatus: invoices.parsingStatus })
      .from(invoices)
      .where(eq(invoices.clientId, app.pohjola));
    const filters: [string, (r: (typeof mine)[number]) => boolean][] = [
      ['', () => true],
      ['&uploadState=uploaded', (r) => r.uploadState === 'uploaded'],
      ['&parsingStatus=completed', (r) => r.parsingStatus === 'completed'],
      ['&q=zzz-no-such-invoice', () => false],
    ];
    for (const [filter, matches] of filters) {
      const expected = mine.filter(matches).map((r) => r.id);
      for (const sort of INVOICE_SORTABLE) {
        for (const order of ['asc', 'desc']) {
          const url = `/api/invoices?pageSize=100&sort=${sort}&order=${order}${filter}`;
          const res = await app.t.inject({ method: 'GET', url, token: app.tok.companyAdmin });
          expect(res.statusCode, url).toBe(200);
          const body = res.json() as { items: { id: number }[]; total: number };
          expect(
            body.items.map((i) => i.id).sort((a, b) => a - b),
            url,
          ).toEqual([...expected].sort((a, b) => a - b));
          expect(body.total, url).toBe(expected.length);
          // A page past the end still counts them (on its own).
          const past = await app.t.inject({
            method: 'GET',
            url: `${url}&page=2`,
            token: app.tok.companyAdmin,
          });
          expect((past.json() as { total: number }).total, url).toBe(expected.length);
        }
      }
    }
  });

  it('makes provider users choose the client, and company users cannot upload for another client', async () => {
    const { pdf } = await generatePlainPdf(['x']).then((p) => ({ pdf: p }));
    const noClient = await upload([{ name: 'a.pdf', data: pdf }], app.tok.admin);
    expect(noClient.statusCode).toBe(400);
    expect(noClient.json().fields).toEqual({ clientId: 'required' });
    const [saimaa] = await app.t.deps.database.db
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.businessId, '0737546-2')));
    const foreign = await upload([{ name: 'a.pdf', data: pdf }], app.tok.companyAdmin, {
      clientId: saimaa.id,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('upload reminder', () => {
  it('mails "No uploads for this month" once to clients on manual upload that asked for it', async () => {
    const sent = await sendUploadReminders(app.t.deps, '2031-05');
    expect(sent).toBeGreaterThan(0);
    const mail = await until(() =>
      app.t.mails.find(
        (m) => m.to.includes(DEMO.otherCompanyAdmin) && /No uploads for this month/.test(mailText(m)),
      ),
    );
    expect(mailText(mail)).toContain('DNA');
    expect(await sendUploadReminders(app.t.deps, '2031-05')).toBe(0);
  }, 30_000);
});
