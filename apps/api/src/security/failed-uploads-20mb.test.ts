// Issue 23, finding 5, at full size: "storage after 100 failed 20 MB uploads ≤ 100 MB beyond the
// kept window". failed-uploads.test.ts proves the rules with small files; this replays them with
// 20 MB files of random (incompressible) bytes and reports what the database holds, logically and
// on disk. It takes minutes, so it runs only when asked for (the figures are in docs/security.md):
//   MEASURE_20MB_UPLOADS=1 TEST_DATABASE_URL=postgres://… npx vitest run apps/api/src/security/failed-uploads-20mb.test.ts
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES } from '@kulu/shared';
import { orphanFileAgeSeconds, removeOrphanFiles } from '../lib/files.js';
import { markFailed, removeExpiredFailedFiles } from '../modules/invoices/invoices.service.js';
import { createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { uploadFiles } from '../test/uploads.js';

const MB = 1024 * 1024;
const DAY = 86_400_000;
const UPLOADS = 100;

/** A 20 MB file that reads as a PDF by its first bytes but is no invoice; random, so incompressible. */
const junkPdf = (tag: string) => {
  const head = Buffer.from(`%PDF-1.7\n%${tag}\n`, 'latin1');
  return Buffer.concat([head, crypto.randomBytes(INVOICE_MAX_BYTES - head.length)]);
};

let t: TestApp;
let token: string;

interface Storage {
  /** Bytes of file contents (file_chunks rows and whole files' own data). */
  contentMb: number;
  /** On disk: pg_total_relation_size of files and file_chunks (with their TOAST and indexes). */
  diskMb: number;
}

async function storage(): Promise<Storage> {
  const { rows } = (await t.deps.database.executeSql(
    `select (select coalesce(sum(octet_length(data)), 0) from file_chunks)::float8
              + (select coalesce(sum(octet_length(data)), 0) from files)::float8 as content,
            (pg_total_relation_size('file_chunks') + pg_total_relation_size('files'))::float8 as disk`,
  )) as { rows: Array<{ content: number; disk: number }> };
  const mb = (n: number) => Math.round((Number(n) / MB) * 10) / 10;
  return { contentMb: mb(rows[0].content), diskMb: mb(rows[0].disk) };
}

/** Uploads a file; an accepted one fails (as its parse would) so that the next upload may start. */
async function uploadAndFail(data: Buffer, name: string) {
  const res = await uploadFiles(t, token, [{ name, data }]);
  if (res.statusCode === 200) {
    await markFailed(t.deps, res.json().results[0].invoiceId, 'invalidInvoice', 'not an invoice');
  }
  return res.statusCode;
}

async function later(ms: number) {
  t.advanceClock(ms);
  token = await t.login(DEMO.companyAdmin);
}

describe.runIf(process.env.MEASURE_20MB_UPLOADS)(
  'failed 20 MB uploads, measured (issue 23, finding 5)',
  () => {
    const figures: Record<string, Storage> = {};
    const seconds: Record<string, number> = {};
    const peakDiskMb: Record<string, number> = {};
    const started = Date.now();
    const lap = (name: string) => (seconds[name] = Math.round((Date.now() - started) / 1000));

    beforeAll(async () => {
      t = await createTestApp();
      token = await t.login(DEMO.companyAdmin);
    }, 120_000);
    afterAll(async () => {
      console.log(`storage of files (MB): ${JSON.stringify(figures, null, 2)}`);
      console.log(`peak on disk (MB): ${JSON.stringify(peakDiskMb)}`);
      console.log(`seconds from the start: ${JSON.stringify(seconds)}`);
      await t?.close();
    });

    it(
      'keeps one copy of a 20 MB file failing 100 times, and nothing of 100 distinct failed 20 MB files after the window',
      async () => {
        figures.before = await storage();
        const same = junkPdf('same');
        const sameCodes: number[] = [];
        // The disk's peak while they arrive: a refused copy is streamed in, then deleted (dead rows
        // until vacuumed).
        let peak = 0;
        for (let i = 0; i < UPLOADS; i++) {
          sameCodes.push(await uploadAndFail(same, 'same.pdf'));
          peak = Math.max(peak, (await storage()).diskMb);
        }
        peakDiskMb.whileSameFileArrived = peak;
        expect(sameCodes.filter((c) => c === 200)).toHaveLength(1);
        expect(sameCodes.filter((c) => c === 409)).toHaveLength(UPLOADS - 1);
        figures.afterSameFile100Times = await storage();
        lap('afterSameFile100Times');
        expect(figures.afterSameFile100Times.contentMb - figures.before.contentMb).toBeCloseTo(20, 0);

        // A new day (the 2 GB daily budget counts 24 hours), then 100 distinct failed files.
        await later(DAY + 1000);
        for (let i = 0; i < UPLOADS; i++) {
          expect(await uploadAndFail(junkPdf(`distinct-${i}`), `f${i}.pdf`)).toBe(200);
        }
        figures.after100DistinctFailed = await storage();
        lap('after100DistinctFailed');
        expect(figures.after100DistinctFailed.contentMb - figures.before.contentMb).toBeCloseTo(2020, 0);

        // Past the window (7 days) the daily cleanup job's work: failed files' bytes, then orphans.
        await later(8 * DAY);
        await removeExpiredFailedFiles(t.deps);
        await removeOrphanFiles(t.deps.database.db, orphanFileAgeSeconds(t.config));
        figures.afterWindowCleanup = await storage();
        lap('afterWindowCleanup');
        // The bound: at most 100 MB beyond the kept window (it is nothing).
        expect(figures.afterWindowCleanup.contentMb - figures.before.contentMb).toBeLessThanOrEqual(100);
        // On disk the deleted rows' space is free for reuse once vacuumed (as autovacuum does).
        await t.deps.database.executeSql('vacuum file_chunks');
        await t.deps.database.executeSql('vacuum files');
        figures.afterVacuum = await storage();
        lap('afterVacuum');
        expect(figures.afterVacuum.diskMb - figures.before.diskMb).toBeLessThanOrEqual(100);
      },
      60 * 60_000,
    );
  },
);
