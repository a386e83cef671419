// Issue 23, finding 5: failed uploads filled the database. A failed invoice kept its file forever,
// the same failed file could be stored again and again, and nothing deleted them. Now the same
// bytes are refused whatever became of them, a daily job removes failed invoices' files after
// FAILED_FILE_RETENTION_DAYS (the invoice and its reason stay), and each client has a storage
// quota and a daily upload budget.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@kulu/shared';
import { invoices } from '../db/schema/index.js';
import { removeExpiredFailedFiles } from '../modules/invoices/invoices.service.js';
import { useUploader } from '../test/fixtures.js';
import { junkPdf } from '../test/uploads.js';

const uploader = useUploader({
  FAILED_FILE_RETENTION_DAYS: '7',
  CLIENT_STORAGE_QUOTA_MB: '150',
  // The first test's 99 refused copies count against the budget too (refused-bytes.test.ts):
  // with the second test's 25 MB, the first day's uploads come to 125 MB.
  CLIENT_DAILY_UPLOAD_MB: '130',
});

const MB = 1024 * 1024;
const DAY = 86_400_000;

/** The file uploaded again and again. */
const SAME = junkPdf('same');

/**
 * Uploads new 10 MB files `tag`-0, `tag`-1… (each failing) until one is refused: its status and
 * body, or null if 20 went through.
 */
async function firstRefused(tag: string) {
  for (let i = 0; i < 20; i++) {
    const res = await uploader.uploadAndFail(junkPdf(`${tag}-${i}`, 10 * MB), `${tag[0]}${i}.pdf`);
    if (res.statusCode !== 200) return { statusCode: res.statusCode, body: res.json() as unknown };
  }
  return null;
}

describe('failed uploads and storage (issue 23, finding 5)', () => {
  it('keeps one copy of a file uploaded 100 times that fails each time: the same bytes are refused whatever their state', async () => {
    const before = await uploader.stored();
    const codes = new Set<string>();
    for (let i = 0; i < 100; i++) {
      const res = await uploader.uploadAndFail(SAME);
      if (i > 0) {
        expect(res.statusCode).toBe(409);
        codes.add(res.json().code);
      }
    }
    expect([...codes]).toEqual(['invoiceSameFileFailed']);
    expect(await uploader.stored()).toBe(before + MB);
  }, 300_000);

  it("removes failed invoices' files after the kept window, keeping the invoices with their reasons", async () => {
    const before = await uploader.stored();
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await uploader.uploadAndFail(junkPdf(`distinct-${i}`, 256 * 1024), `f${i}.pdf`);
      expect(res.statusCode).toBe(200);
      ids.push(res.json().results[0].invoiceId);
    }
    expect(await uploader.stored()).toBe(before + 100 * 256 * 1024);
    // Within the window nothing goes; past it, every failed file does (the earlier one too).
    await uploader.later(6 * DAY);
    await removeExpiredFailedFiles(uploader.t.deps);
    expect(await uploader.stored()).toBe(before + 100 * 256 * 1024);
    await uploader.later(2 * DAY);
    await removeExpiredFailedFiles(uploader.t.deps);
    expect(await uploader.stored()).toBeLessThanOrEqual(before - MB);
    const [kept] = await uploader.t.deps.database.db
      .select({ state: invoices.uploadState, code: invoices.errorCode })
      .from(invoices)
      .where(eq(invoices.id, ids[0]));
    expect(kept).toEqual({ state: 'failed', code: 'invalidInvoice' });
    const file = await uploader.t.inject({
      method: 'GET',
      url: `/api/invoices/${ids[0]}/file`,
      token: uploader.token,
    });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toMatchObject({ code: 'invoiceFileRemoved' });
    // The same bytes are still known after their file went.
    const again = await uploader.uploadAndFail(SAME);
    expect(again.statusCode).toBe(409);
  }, 600_000);

  it("refuses with a clear message an upload past the client's daily budget (429) or storage quota (413)", async () => {
    // A new day: the budget of 130 MB counts the last 24 hours' uploads.
    await uploader.later(2 * DAY);
    expect(await firstRefused('budget')).toMatchObject({
      statusCode: 429,
      body: { code: 'dailyUploadBudgetSpent', message: MESSAGES.dailyUploadBudgetSpent.en },
    });
    // The next day the budget is there again but the stored files fill the quota of 150 MB.
    await uploader.later(DAY + 1000);
    expect(await firstRefused('quota')).toMatchObject({
      statusCode: 413,
      body: { code: 'clientStorageFull', message: MESSAGES.clientStorageFull.en },
    });
    expect(await uploader.stored()).toBeLessThanOrEqual(150 * MB);
  }, 600_000);
});
