// Issue 23, finding 5 (what was left of it): a process stopped while an upload streamed into
// file_chunks left file rows and chunks that no invoice names, kept forever. Now the files no row
// names are removed once older than twice the longest an upload may take (at least an hour), at
// start-up and by the daily cleanup job, and an upload that does not arrive within
// UPLOAD_MAX_SECONDS is cut off (what it streamed removed), so no upload still arriving is older.
import { eq, getTableName, gt, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { INVOICE_MAX_BYTES } from '@kulu/shared';
import {
  clientOperatorDocuments,
  clientOperators,
  clients,
  fileChunks,
  files,
  helpFiles,
  users,
} from '../db/schema/index.js';
import { startJobs } from '../jobs/index.js';
import { QUEUE } from '../lib/queue.js';
import { FILE_REFERENCES, orphanFileAgeSeconds, removeOrphanFiles, storeFileStream } from '../lib/files.js';
import { DEMO } from '../test/helpers.js';
import { useUploader } from '../test/fixtures.js';
import { uploadStreamed } from '../test/uploads.js';

// A short upload limit for the cut-off test, and room in flight for one 20 MB upload only.
const uploader = useUploader({ UPLOAD_MAX_SECONDS: '3', UPLOAD_IN_FLIGHT_MB: '30' });

const MB = 1024 * 1024;
const HOUR = 3600;

/** Makes a file look stored `seconds` ago by the database's clock. */
async function age(fileId: number, seconds: number) {
  await uploader.t.deps.database.executeSql(
    `update files set created_at = now() - $1::int * interval '1 second' where id = $2`,
    [seconds, fileId],
  );
}

/** A file streamed in as an upload stores it (a row and its 1 MB chunks), named by nothing. */
async function streamedFile(bytes: number, agedSeconds: number): Promise<number> {
  async function* pieces() {
    yield Buffer.from('%PDF-1.7\n');
    for (let left = bytes - 9; left > 0; left -= 256 * 1024)
      yield Buffer.alloc(Math.min(left, 256 * 1024), 1);
  }
  const outcome = await storeFileStream(
    uploader.t.deps.database.db,
    { clientId: uploader.clientId, kind: 'invoice', name: 'cut.pdf', mime: 'application/pdf' },
    pieces(),
    { maxBytes: INVOICE_MAX_BYTES },
  );
  if (!('stored' in outcome)) throw new Error('not stored');
  await age(outcome.stored.fileId, agedSeconds);
  return outcome.stored.fileId;
}

/** A whole file row (as logos and documents are stored), `agedSeconds` old. */
async function wholeFile(kind: string, agedSeconds: number): Promise<number> {
  const [f] = await uploader.t.deps.database.db
    .insert(files)
    .values({
      clientId: uploader.clientId,
      kind,
      name: `${kind}.bin`,
      mime: 'application/octet-stream',
      size: 3,
      data: Buffer.from('abc'),
    })
    .returning({ id: files.id });
  await age(f.id, agedSeconds);
  return f.id;
}

const existing = async (ids: number[]) =>
  (await uploader.t.deps.database.db.select({ id: files.id }).from(files).where(inArray(files.id, ids)))
    .map((r) => r.id)
    .sort((a, b) => a - b);

const chunksOf = async (fileId: number) => {
  const [r] = await uploader.t.deps.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(fileChunks)
    .where(eq(fileChunks.fileId, fileId));
  return r.n;
};

describe('files no row names (issue 23, finding 5)', () => {
  it('knows every column that holds a file id, as the database has them', async () => {
    const { rows } = (await uploader.t.deps.database.executeSql(
      `select c.conrelid::regclass::text as "table", a.attname as "column"
         from pg_constraint c join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any(c.conkey)
        where c.contype = 'f' and c.confrelid = 'files'::regclass
       union
       select table_name, column_name from information_schema.columns
        where table_schema = 'public' and column_name like '%file_id'`,
    )) as { rows: Array<{ table: string; column: string }> };
    const inDatabase = rows
      .map((r) => `${r.table.replace(/^"|"$/g, '')}.${r.column}`)
      .filter((c) => c !== 'file_chunks.file_id') // a file's own bytes, removed with it
      .sort();
    const known = FILE_REFERENCES.map(([table, column]) => `${getTableName(table)}.${column.name}`).sort();
    expect(known).toEqual(inDatabase);
  });

  it('removes the files (and chunks) no row names once older than the safe age, and keeps young ones and every named one', async () => {
    const { db } = uploader.t.deps.database;
    const minAge = orphanFileAgeSeconds(uploader.t.config);
    expect(minAge).toBe(HOUR);
    // What a process stopped mid-upload leaves: a file row with its chunks, named by no invoice.
    const old = await streamedFile(3 * MB + 5, 2 * HOUR);
    expect(await chunksOf(old)).toBe(4);
    // One of an upload that may still be arriving.
    const young = await streamedFile(MB, HOUR / 2);
    // An old file named by each column that can name one.
    const named: Record<string, number> = {};
    const up = await uploader.uploadAndFail(Buffer.from('%PDF-1.7\nnamed'), 'named.pdf');
    expect(up.statusCode).toBe(200);
    const invoiceId = up.json().results[0].invoiceId as number;
    const [inv] = (
      await uploader.t.deps.database.executeSql(`select file_id from invoices where id = $1`, [invoiceId])
    ).rows as Array<{ file_id: number }>;
    named.invoices = inv.file_id;
    await age(named.invoices, 2 * HOUR);
    const [operator] = await db
      .select({ id: clientOperators.id })
      .from(clientOperators)
      .where(eq(clientOperators.clientId, uploader.clientId))
      .limit(1);
    named.client_operator_documents = await wholeFile('document', 2 * HOUR);
    await db.insert(clientOperatorDocuments).values({
      clientId: uploader.clientId,
      clientOperatorId: operator.id,
      name: 'contract',
      fileId: named.client_operator_documents,
    });
    named.help_files = await wholeFile('help', 2 * HOUR);
    await db
      .insert(helpFiles)
      .values({ roleId: 1, page: 'orphans', languageId: 1, fileId: named.help_files });
    named.clients = await wholeFile('logo', 2 * HOUR);
    await db.update(clients).set({ logoFileId: named.clients }).where(eq(clients.id, uploader.clientId));
    named.users = await wholeFile('logo', 2 * HOUR);
    await db.update(users).set({ logoFileId: named.users }).where(eq(users.email, DEMO.admin));
    // Every column that can name a file is covered here.
    expect(Object.keys(named).sort()).toEqual(FILE_REFERENCES.map(([table]) => getTableName(table)).sort());

    expect(await removeOrphanFiles(db, minAge)).toBeGreaterThanOrEqual(1);
    expect(await existing([old])).toEqual([]);
    expect(await chunksOf(old)).toBe(0);
    expect(await existing([young])).toEqual([young]);
    expect(await chunksOf(young)).toBe(1);
    const kept = Object.values(named).sort((a, b) => a - b);
    expect(await existing(kept)).toEqual(kept);
    // The failed invoice's file page still answers (its bytes are there).
    const file = await uploader.t.inject({
      method: 'GET',
      url: `/api/invoices/${invoiceId}/file`,
      token: uploader.token,
    });
    expect(file.statusCode).toBe(200);
  });

  it('cuts off an upload that does not arrive within UPLOAD_MAX_SECONDS, removes what it streamed and frees its bytes in flight', async () => {
    const { db } = uploader.t.deps.database;
    const [{ last }] = await db.select({ last: sql<number>`coalesce(max(${files.id}), 0)::int` }).from(files);
    // 20 MB declared, 3 MB sent, then nothing more: without a limit it would hold forever.
    const stalled = uploadStreamed(uploader.t, uploader.token, INVOICE_MAX_BYTES, { stallAfter: 3 * MB });
    // Cut off: the connection closes, there is no answer.
    await expect(stalled.res).rejects.toThrow(/destroyed/);
    expect(stalled.counter.read).toBeLessThan(INVOICE_MAX_BYTES);
    // Nothing of it is left (removed as the request's handler ends), and its 20 MB of the
    // instance's 30 MB in flight are free again.
    const streamed = () => db.select({ id: files.id }).from(files).where(gt(files.id, last));
    for (let i = 0; i < 100 && (await streamed()).length; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await streamed()).toEqual([]);
    // The next 20 MB upload is let in and read (its file judged by its content), not 429.
    const next = uploadStreamed(uploader.t, uploader.token, INVOICE_MAX_BYTES, { pdf: false });
    const after = await next.res;
    expect(after.json()).toMatchObject({ code: 'invoiceNotPdf', refused: 1 });
    expect(next.counter.read).toBe(next.length);
  }, 60_000);

  it('runs at start-up and in the daily cleanup job', async () => {
    const atStart = await streamedFile(MB, 2 * HOUR);
    await startJobs(uploader.t.deps, { schedules: false });
    expect(await existing([atStart])).toEqual([]);
    const daily = await streamedFile(MB, 2 * HOUR);
    const jobId = await uploader.t.deps.jobs.send(QUEUE.failedInvoiceFilesCleanup, {});
    let state = '';
    for (let i = 0; i < 240 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const { rows } = (await uploader.t.deps.database.executeSql(
        `select state from pgboss.job where id = $1`,
        [jobId],
      )) as { rows: Array<{ state: string }> };
      state = rows[0]?.state ?? '';
    }
    expect(state).toBe('completed');
    expect(await existing([daily])).toEqual([]);
  }, 120_000);
});
