import type { Mail } from '../lib/mailer.js';
import type { Deps } from '../types.js';
import { parseInvoiceHandler, type ParseInvoiceJob } from '../modules/invoices/pipeline/parse-invoice.js';
import { stopParseChild } from '../modules/invoices/pipeline/parse-runner.js';
import { stopFollowUpWorker } from '../lib/follow-up.js';
import {
  recoverOrphanedParses,
  requeueOrphans,
  STALE_SECONDS,
} from '../modules/invoices/pipeline/parse-recovery.js';

import { QUEUE } from '../lib/queue.js';
import { sweeper } from '../lib/sweep.js';
import type { PhaseLog } from '../lib/phases.js';
import { uploadReminderHandler } from '../modules/invoices/upload-reminders.js';
import { startOptimizeWorker, stopOptimizeSweep } from '../modules/optimization/optimize.jobs.js';
import {
  buildReportExportHandler,
  removeExpiredExports,
  requeueScheduledExports,
  type BuildReportExportJob,
} from '../modules/report-exports/report-exports.service.js';
import { sendLeadReminders } from '../modules/clients/lead-reminders.js';
import {
  dailyAlertsHandler,
  evaluateAlertsHandler,
  type EvaluateAlertsJob,
} from '../modules/alerts/alerts.jobs.js';
import { removeExpiredFailedFiles, removeOldUploadReceipts } from '../modules/invoices/invoices.service.js';
import { orphanFileAgeSeconds, removeOrphanFiles } from '../lib/files.js';
import { sendOperatorContractReminders } from '../modules/client-sections/operator-contract-reminders.js';
import {
  enqueueMonthlyFetches,
  runFetch,
  type FetchInvoicesJob,
} from '../modules/automation/automation.service.js';

export { QUEUE } from '../lib/queue.js';

/** The orphaned-parse sweep of each started instance. */
const parseSweep = sweeper(recoverOrphanedParses, STALE_SECONDS);

export interface StartJobsOptions {
  /** Cron schedules (monthly automation, reminders); off in tests. Default true. */
  schedules?: boolean;
  /** More workers, started after the application's own (demo mode adds its demo-invoices worker). */
  extensions?: JobsExtension[];
  /**
   * Where the parse and optimize jobs write one line each of where their time went (the server's
   * logger at debug level; lib/phases.ts). None: not measured.
   */
  log?: PhaseLog;
}

/** Work another part adds to the queue (registers its workers, enqueues its jobs). */
export type JobsExtension = (deps: Deps) => Promise<void>;

/**
 * Starts the queue's workers on this instance: parse-invoice, send-mail, upload-reminder,
 * fetch-invoices and automation-monthly (automated retrieval), then the `extensions`. Called by server.ts
 * after the migrations, and by tests that need jobs. Any number of instances may run this:
 * pg-boss hands each job to one worker.
 */
export async function startJobs(deps: Deps, options: StartJobsOptions = {}): Promise<void> {
  const { jobs } = deps;
  await jobs.start();
  await jobs.work<ParseInvoiceJob>(QUEUE.parseInvoice, parseInvoiceHandler(deps, options.log));
  await jobs.work<Mail>(QUEUE.sendMail, async (job) => {
    await deps.mailer.send(job.data);
  });
  await jobs.work<{ month?: string }>(QUEUE.uploadReminder, uploadReminderHandler(deps), 5);
  await jobs.work<{ day?: string }>(QUEUE.leadReminder, async (job) => {
    await sendLeadReminders(deps, job.data.day);
  });
  await jobs.work<{ day?: string }>(QUEUE.operatorContractReminder, async (job) => {
    await sendOperatorContractReminders(deps, job.data.day);
  });
  await jobs.work<FetchInvoicesJob>(QUEUE.fetchInvoices, async (job) => {
    await runFetch(deps, job.data);
  });
  await jobs.work<{ month?: string }>(
    QUEUE.automationMonthly,
    async (job) => {
      await enqueueMonthlyFetches(deps, job.data.month);
    },
    5,
  );
  await startOptimizeWorker(deps, options.log);
  await jobs.work<EvaluateAlertsJob>(QUEUE.evaluateAlerts, evaluateAlertsHandler(deps));
  await jobs.work<{ day?: string }>(QUEUE.alertsDaily, dailyAlertsHandler(deps));
  await jobs.work<BuildReportExportJob>(QUEUE.buildReportExport, buildReportExportHandler(deps));
  await jobs.work(QUEUE.reportExportsCleanup, async () => {
    await removeExpiredExports(deps);
  });
  await jobs.work(QUEUE.failedInvoiceFilesCleanup, async () => {
    await removeExpiredFailedFiles(deps);
    await removeOldUploadReceipts(deps);
    await removeOrphanFiles(deps.database.db, orphanFileAgeSeconds(deps.config));
  });
  if (options.schedules ?? true) {
    // The 20th of each month at 8:00 Helsinki time.
    await jobs.schedule(QUEUE.uploadReminder, '0 8 20 * *');
    // Every day at 7:00: lead reminders of the day.
    await jobs.schedule(QUEUE.leadReminder, '0 7 * * *');
    // Every day at 7:10: operator contract end date reminders of the day.
    await jobs.schedule(QUEUE.operatorContractReminder, '10 7 * * *');
    // Every day at 7:20: the date-based alert rules (invoice missing, contract ending).
    await jobs.schedule(QUEUE.alertsDaily, '20 7 * * *');
    // The 6th of each month at 6:00: fetch the month's invoices of clients on automated upload.
    await jobs.schedule(QUEUE.automationMonthly, '0 6 6 * *');
    // Every day at 3:30: remove archived exports past their keeping time.
    await jobs.schedule(QUEUE.reportExportsCleanup, '30 3 * * *');
    // Every day at 3:40: remove failed invoices' files past their keeping time, files no row
    // names (left by an instance stopped while an upload streamed in) and refused upload bytes
    // older than the daily budget's 24 hours.
    await jobs.schedule(QUEUE.failedInvoiceFilesCleanup, '40 3 * * *');
  }
  await recoverOrphanedParses(deps);
  await requeueOrphans(deps);
  await requeueScheduledExports(deps);
  // What an instance stopped mid-upload left goes now, not only at the next daily cleanup.
  await removeOrphanFiles(deps.database.db, orphanFileAgeSeconds(deps.config));
  // Also while running: a parse whose instance died is taken over by a live one within a minute.
  parseSweep.start(deps);
  for (const extension of options.extensions ?? []) await extension(deps);
}

/** Graceful stop: no new jobs, running handlers finish (or are released), the parse worker ends. */
export async function stopJobs(deps: Deps): Promise<void> {
  parseSweep.stop(deps);
  stopOptimizeSweep(deps);
  await deps.jobs.stop();
  await stopParseChild();
  await stopFollowUpWorker(deps.database);
}
