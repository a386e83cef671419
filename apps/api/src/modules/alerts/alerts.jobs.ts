import type { Deps } from '../../types.js';
import { QUEUE, type JobHandler } from '../../lib/queue.js';
import { fairPriority } from '../../lib/fair-priority.js';
import { helsinkiDay } from '@kulu/shared';
import { eq } from 'drizzle-orm';
import { invoices } from '../../db/schema/index.js';
import { evaluateInvoiceAlerts } from './evaluate.service.js';
import { evaluateAlertsOffLoop } from '../../lib/follow-up.js';
import { sendAlertDigests } from './digest.service.js';
import { evaluateDailyAlerts, reevaluateRecentInvoices } from './daily.service.js';

export interface EvaluateAlertsJob {
  invoiceId: number;
}

/** evaluate-alerts: the import rules of one uploaded invoice (idempotent: each alert is stored once). */
export function evaluateAlertsHandler(deps: Deps): JobHandler<EvaluateAlertsJob> {
  return async (job) => {
    const { db } = deps.database;
    // On the follow-up worker thread where there is one (PostgreSQL): lib/follow-up.ts.
    const added = await (evaluateAlertsOffLoop(deps, job.data.invoiceId) ??
      evaluateInvoiceAlerts(db, job.data.invoiceId));
    if (!added) return;
    // The immediate digests (decision 0026); a retry finds these alerts already digested.
    const [inv] = await db
      .select({ clientId: invoices.clientId })
      .from(invoices)
      .where(eq(invoices.id, job.data.invoiceId));
    if (inv?.clientId != null) await sendAlertDigests(deps, ['immediate'], inv.clientId);
  };
}

/**
 * Sent after an import commits (modules/invoices/pipeline/parse-invoice.ts), like the client's optimization. Fair between
 * clients like the parses (decision 0019): its priority is minus the number of the client's
 * evaluations not yet finished, so a client that imported 20 invoices holds at most one evaluation
 * ahead of another client's first.
 */
export async function requestAlertEvaluation(deps: Deps, invoiceId: number): Promise<string | null> {
  await deps.jobs.start(); // the queue's tables exist once it has started
  return deps.jobs.send(QUEUE.evaluateAlerts, { invoiceId } satisfies EvaluateAlertsJob, {
    singletonKey: `alerts:${invoiceId}`,
    priority: await fairPriority(deps, QUEUE.evaluateAlerts, invoiceId),
  });
}

/** How far back the daily run evaluates imports again (a lost evaluate-alerts send). */
export const REEVALUATE_HOURS = 48;

/**
 * alerts-daily: the date-based rules of the day (`day`, default today in Helsinki), and the import
 * rules of the last two days' invoices again.
 */
export function dailyAlertsHandler(deps: Deps): JobHandler<{ day?: string }> {
  return async (job) => {
    const { db } = deps.database;
    await evaluateDailyAlerts(db, job.data.day ?? helsinkiDay(deps.now()));
    await reevaluateRecentInvoices(db, new Date(deps.now().getTime() - REEVALUATE_HOURS * 3_600_000));
    // The daily digests, and the immediate ones of today's date-based alerts (decision 0026).
    await sendAlertDigests(deps, ['immediate', 'daily']);
  };
}
