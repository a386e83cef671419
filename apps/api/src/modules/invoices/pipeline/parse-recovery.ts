import crypto from 'node:crypto';
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { invoices } from '../../../db/schema/index.js';
import { markFailed, notifyWaiting, queueParse } from '../invoices.service.js';
import type { Deps } from '../../../types.js';
import { QUEUE, resendLost, type JobOwner } from '../../../lib/queue.js';

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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Marks a parse job as run by this process and keeps its heartbeat fresh until `stop()`. */
export async function claimParseJob(deps: Deps, jobId: string): Promise<() => void> {
  // Only a queued job has an owner to record (a handler called directly, as in tests, has none).
  if (!UUID.test(jobId)) return () => {};
  const stamp = () => deps.jobs.stampActive(QUEUE.parseInvoice, jobId, INSTANCE).catch(() => {});
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
export function ownerGone(owner: JobOwner | null, stale: boolean): boolean {
  if (stale) return true;
  if (!owner?.boot) return false;
  if (owner.boot === INSTANCE.boot) return false;
  if (owner.host !== INSTANCE.host || typeof owner.pid !== 'number') return false;
  // Same machine: our own pid under another start id (a restarted container), or a dead pid.
  return owner.pid === INSTANCE.pid || processGone(owner.pid);
}

/**
 * Parse jobs left active by a process that is gone are handed back at once instead of waiting for
 * their expiry: re-queued to run now while the job has retries left, otherwise failed, and then
 * their invoice failed with the reason (so uploads of that client are no longer refused as
 * "previous parse running"). Safe with several instances: each job is taken over by one of them
 * (compare-and-set on its owner stamp). Returns the ids of the jobs taken over.
 */
export async function recoverOrphanedParses(deps: Deps): Promise<string[]> {
  const taken: string[] = [];
  for (const r of await deps.jobs.activeJobs(QUEUE.parseInvoice, STALE_SECONDS)) {
    if (!ownerGone(r.owner, r.stale)) continue;
    if (!(await deps.jobs.takeOverActive(QUEUE.parseInvoice, r.id, r.owner, { recoveredBy: INSTANCE.boot })))
      continue;
    taken.push(r.id);
    await deps.jobs.fail(QUEUE.parseInvoice, r.id, {
      message: 'the parse was interrupted: the process that ran it stopped',
    });
    const retried = await deps.jobs.retryNow(QUEUE.parseInvoice, r.id);
    const invoiceId = Number(r.invoiceId);
    if (!retried && Number.isInteger(invoiceId)) {
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

/**
 * In-progress invoices whose parse job is gone (the enqueue failed after the row was committed)
 * get a new job; the handler is idempotent, so a duplicate costs one no-op.
 */
export async function requeueOrphans(deps: Deps): Promise<number> {
  const match = sql`(j.data->>'invoiceId')::int = ${invoices.id}`;
  const lost = { id: invoices.id, waiting: eq(invoices.uploadState, 'in_progress'), match };
  return resendLost(deps.database.db, QUEUE.parseInvoice, lost, (id) => queueParse(deps, id));
}
