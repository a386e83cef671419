// Issue 23: a duplicate upload is recognised only once its SHA-256 is known at the end of the
// stream, so each refused copy was written to file_chunks and then deleted, and refused files did
// not count against the client's daily upload budget: 100 copies of one 20 MB file kept 20 MB but
// grew the tables to 1,456 MB on disk. Now every file byte an upload sends counts against the
// budget, accepted or refused (upload_receipts), so the churn is bounded per client and day.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@kulu/shared';
import { uploadReceipts } from '../db/schema/index.js';
import { removeOldUploadReceipts } from '../modules/invoices/invoices.service.js';
import { useUploader } from '../test/fixtures.js';
import { junkPdf, uploadFiles, uploadStreamed } from '../test/uploads.js';

const uploader = useUploader({ CLIENT_DAILY_UPLOAD_MB: '6' });

const MB = 1024 * 1024;
const DAY = 86_400_000;

/** A 1 MB file that reads as a PDF by its first bytes but is no invoice (its parse would fail). */
const SAME = junkPdf('refused-bytes');

const receipts = async () =>
  uploader.t.deps.database.db
    .select({ bytes: uploadReceipts.bytes })
    .from(uploadReceipts)
    .where(eq(uploadReceipts.clientId, uploader.clientId));

describe('refused copies of a file count against the daily upload budget (issue 23)', () => {
  it('refuses the same file as a duplicate until its refused bytes spend the budget, then refuses uploads before their body is read', async () => {
    const before = await uploader.stored();
    const first = await uploader.uploadAndFail(SAME, 'same.pdf');
    expect(first.statusCode).toBe(200);

    const codes: string[] = [];
    for (let i = 0; i < 20 && !codes.includes('dailyUploadBudgetSpent'); i++) {
      const res = await uploadFiles(uploader.t, uploader.token, [{ name: 'same.pdf', data: SAME }]);
      codes.push(res.json().code);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ message: MESSAGES.dailyUploadBudgetSpent.en });
      } else expect(res.statusCode).toBe(409);
    }
    // 1 MB accepted and 4 refused copies: a fifth would pass the budget of 6 MB.
    expect(codes).toEqual([
      'invoiceSameFileFailed',
      'invoiceSameFileFailed',
      'invoiceSameFileFailed',
      'invoiceSameFileFailed',
      'dailyUploadBudgetSpent',
    ]);
    expect((await receipts()).map((r) => r.bytes)).toEqual([MB, MB, MB, MB]);
    expect(await uploader.stored()).toBe(before + MB);

    // Refused before the body is read: the server took no more than the stream buffered ahead.
    const big = uploadStreamed(uploader.t, uploader.token, 4 * MB);
    const res = await big.res;
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'dailyUploadBudgetSpent' });
    expect(big.counter.read).toBeLessThan(2 * MB);
    expect(await uploader.stored()).toBe(before + MB);
  }, 120_000);

  it('counts a file refused while it streams in (not a PDF) and drops receipts older than 24 hours', async () => {
    await uploader.later(DAY + 1000);
    expect(await removeOldUploadReceipts(uploader.t.deps)).toBe(4);
    expect(await receipts()).toEqual([]);
    const notPdf = uploadStreamed(uploader.t, uploader.token, 3 * MB, { pdf: false });
    expect((await notPdf.res).statusCode).toBe(400);
    expect((await receipts()).map((r) => r.bytes)).toEqual([3 * MB]);
    // The duplicate is known again the next day, and its bytes count once more.
    const again = await uploadFiles(uploader.t, uploader.token, [{ name: 'same.pdf', data: SAME }]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'invoiceSameFileFailed' });
    const next = await uploadFiles(uploader.t, uploader.token, [{ name: 'same.pdf', data: SAME }]);
    expect(next.statusCode).toBe(409);
    const spent = await uploadFiles(uploader.t, uploader.token, [{ name: 'same.pdf', data: SAME }]);
    expect(spent.statusCode).toBe(429);
    expect(spent.json()).toMatchObject({ code: 'dailyUploadBudgetSpent' });
  }, 120_000);
});
