import crypto from 'node:crypto';
import os from 'node:os';
import { markFailed, notifyWaiting } from '../invoices.service.js';
import type { Deps } from '../../../types.js';
import { QUEUE } from '../../../lib/queue.js';

/**
 * Who runs a parse job. The handler stamps the job (pg-boss's `output` column, unused while a job
 * is active) with this process's host, pid and a per-start id, and refreshes a heartbeat while it
 * runs. A later start (or the periodic sweep) can then tell a parse whose process is gone (killed,
 * crashed, restarted) from one that is still running on another instance.
 */
export const INSTANCE = { host: os.hostname(), pid: process.pid, boot: crypto.randomUUID() };

/** How often a running parse refreshes its heartbeat. */
export const HEARTBEAT_SECONDS = 10;
/** A heartbeat (or an unstamped active job) older than this belongs to a process that is gone. */
export const STALE_SECONDS = 30;

interface Owner {
  host?: string;
  pid?: number;
  boot?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const stampSql = `update pgboss.job
  set output = jsonb_build_object('host', $3::text, 'pid', $4::int, 'boot', $5::text, 'beat', now())
  where name = $1 and id = $2::uuid and state = 'active'`;

/** Marks a parse job as run by this process and keeps its heartbeat fresh until `stop()`. */
export async function claimParseJob(deps: Deps, jobId: string): Promise<() => void> {
  const { database } = deps;
  // Only a queued job has an owner to record (a handler called directly, as in tests, has none).
  if (!UUID.test(jobId)) return () => {};
  const args = [QUEUE.parseInvoice, jobId, INSTANCE.host, INSTANCE.pid, INSTANCE.boot];
  const stamp = () => database.executeSql(stampSql, args).catch(() => {});
  await stamp();
  const beat = setInterval(() => void stamp(), HEARTBEAT_SECONDS * 1000);
  beat.unref();
  return () => clearInterval(beat);
}

function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether the process that runs an active parse job is gone. */
export function ownerGone(owner: Owner | null, stale: boolean): boolean {
  if (stale) return true;
  if (!owner?.boot) return false;
  if (owner.boot === INSTANCE.boot) return false;
  if (owner.host !== INSTANCE.host || typeof owner.pid !== 'number') return false;
  // Same machine: our own pid under another start id (a restarted container), or a dead pid.
  return owner.pid === INSTANCE.pid || processGone(owner.pid);
}

interface ActiveRow {
  id: string;
  invoice_id: string | null;
  output: Owner | null;
  stale: boolean;
}

/**
 * Parse jobs left active by a process that is gone are handed back at once instead of waiting for
 * their expiry: re-queued to run now while the job has retries left, otherwise failed, and then
 * their invoice failed with the reason (so uploads of that client are no longer refused as
 * "previous parse running"). Safe with several instances: each job is taken over by one of them
 * (compare-and-set on its owner stamp). Returns the ids of the jobs taken over.
 */
export async function recoverOrphanedParses(deps: Deps): Promise<string[]> {
  const { database } = deps;
  const { rows } = (await database.executeSql(
    `select id::text, data->>'invoiceId' as invoice_id, output,
            coalesce((output->>'beat')::timestamptz, started_on) < now() - ($2::int * interval '1 second') as stale
       from pgboss.job where name = $1 and state = 'active'`,
    [QUEUE.parseInvoice, STALE_SECONDS],
  )) as { rows: ActiveRow[] };
  const taken: string[] = [];
  for (const r of rows) {
    if (!ownerGone(r.output, r.stale)) continue;
    const claim = (await database.executeSql(
      `update pgboss.job set output = $3::jsonb
         where name = $1 and id = $2::uuid and state = 'active' and output is not distinct from $4::jsonb
         returning id`,
      [
        QUEUE.parseInvoice,
        r.id,
        JSON.stringify({ recoveredBy: INSTANCE.boot }),
        r.output == null ? null : JSON.stringify(r.output),
      ],
    )) as { rows: unknown[] };
    if (!claim.rows.length) continue;
    taken.push(r.id);
    await deps.jobs.fail(QUEUE.parseInvoice, r.id, {
      message: 'the parse was interrupted: the process that ran it stopped',
    });
    const after = (await database.executeSql(
      `update pgboss.job set start_after = now()
         where name = $1 and id = $2::uuid and state = 'retry' returning state`,
      [QUEUE.parseInvoice, r.id],
    )) as { rows: unknown[] };
    const invoiceId = Number(r.invoice_id);
    if (!after.rows.length && Number.isInteger(invoiceId)) {
      // No retries left: the invoice fails now rather than staying in progress.
      await markFailed(
        deps,
        invoiceId,
        'invoiceParseInterrupted',
        'the parse was interrupted too many times',
      );
      await notifyWaiting(deps, invoiceId);
    }
  }
  return taken;
}
