import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateInvoice } from '@kulu/invoices';
import { startJobs } from '../jobs/index.js';
import { INSTANCE, ownerGone } from '../modules/invoices/pipeline/parse-recovery.js';
import { QUEUE } from '../lib/queue.js';
import { BUYER, createTestApp, DEMO, type TestApp } from '../test/helpers.js';
import { forPohjola } from '../test/generated.js';
import { settled, uploadFiles } from '../test/uploads.js';

let t: TestApp;
const tok: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ PARSE_TIMEOUT_SECONDS: '45' });
  for (const k of ['companyAdmin', 'otherCompanyAdmin'] as const) tok[k] = await t.login(DEMO[k]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The pid of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

async function jobOf(invoiceId: number) {
  const { rows } = (await t.deps.database.executeSql(
    `select id::text, state::text, retry_count, retry_limit, extract(epoch from expire_in)::int as expire
       from pgboss.job where name = $1 and (data->>'invoiceId')::int = $2 order by created_on desc`,
    [QUEUE.parseInvoice, invoiceId],
  )) as {
    rows: Array<{ id: string; state: string; retry_count: number; retry_limit: number; expire: number }>;
  };
  return rows[0];
}

describe('a parse orphaned by a crash', () => {
  it('is re-queued (or failed when out of retries) as soon as the queue starts again', async () => {
    // Two uploads whose parse jobs are queued, while no worker runs on this instance yet.
    const elisa = await forPohjola({ operator: 'elisa', subscriptions: 3, seed: 601 });
    const dna = await generateInvoice({ operator: 'dna', subscriptions: 3, seed: 602, buyer: BUYER.saimaa });
    const a = await uploadFiles(t, tok.companyAdmin, [{ name: 'a.pdf', data: elisa.pdf }]);
    const b = await uploadFiles(t, tok.otherCompanyAdmin, [{ name: 'b.pdf', data: dna.pdf }]);
    const idA: number = a.json().results[0].invoiceId;
    const idB: number = b.json().results[0].invoiceId;

    // The job expires with the parse time limit (45 s) plus the import margin, not after 15 min.
    const jobA = await jobOf(idA);
    expect(jobA.expire).toBe(45 + 60);

    // kill -9 during the parse: the jobs stay active, owned by processes that are gone.
    await t.deps.database.executeSql(
      `update pgboss.job set state = 'active', started_on = now(), retry_count = 0,
         output = jsonb_build_object('host', $2::text, 'pid', $3::int, 'boot', 'gone', 'beat', now())
       where id = $1::uuid`,
      [jobA.id, os.hostname(), deadPid()],
    );
    const jobB = await jobOf(idB);
    await t.deps.database.executeSql(
      `update pgboss.job set state = 'active', started_on = now() - interval '2 minutes',
         retry_count = retry_limit, output = null where id = $1::uuid`,
      [jobB.id],
    );
    // Meanwhile the client's uploads are refused as "previous parse running".
    const other = await forPohjola({ operator: 'telia', subscriptions: 2, seed: 603 });
    const refused = await uploadFiles(t, tok.companyAdmin, [{ name: 'c.pdf', data: other.pdf }]);
    expect(refused.statusCode).toBe(409);

    // The restart: the orphaned parse runs again at once, the one out of retries fails at once.
    const started = Date.now();
    await startJobs(t.deps, { schedules: false });
    expect(await settled(t, tok.companyAdmin, idA, 30_000)).toMatchObject({ uploadState: 'uploaded' });
    expect(await settled(t, tok.otherCompanyAdmin, idB, 30_000)).toMatchObject({
      uploadState: 'failed',
      errorCode: 'invoiceParseInterrupted',
      errorMessage: 'Reading the invoice was interrupted, please upload it again',
    });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await jobOf(idB)).state).toBe('failed');

    // And the client can upload again.
    const again = await uploadFiles(t, tok.companyAdmin, [{ name: 'c.pdf', data: other.pdf }]);
    expect(again.statusCode).toBe(200);
    expect(await settled(t, tok.companyAdmin, again.json().results[0].invoiceId)).toMatchObject({
      uploadState: 'uploaded',
    });
  }, 120_000);

  it('tells a parse whose process is gone from one still running elsewhere', () => {
    const here = { host: INSTANCE.host };
    expect(ownerGone({ ...here, pid: INSTANCE.pid, boot: INSTANCE.boot }, false)).toBe(false);
    // This machine: a pid that has ended, or our own pid from an earlier start (a restarted container).
    expect(ownerGone({ ...here, pid: deadPid(), boot: 'earlier' }, false)).toBe(true);
    expect(ownerGone({ ...here, pid: INSTANCE.pid, boot: 'earlier' }, false)).toBe(true);
    // A live process of this machine, or another machine with a fresh heartbeat: still running.
    expect(ownerGone({ ...here, pid: process.ppid, boot: 'other' }, false)).toBe(false);
    expect(ownerGone({ host: 'another-host', pid: 1, boot: 'other' }, false)).toBe(false);
    // No heartbeat for too long: gone, wherever it ran.
    expect(ownerGone({ host: 'another-host', pid: 1, boot: 'other' }, true)).toBe(true);
    expect(ownerGone(null, false)).toBe(false);
  });
});
