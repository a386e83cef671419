import { and, eq, inArray } from 'drizzle-orm';
import { helsinkiMonth, ROLE } from '@kulu/shared';
import { clientOperators, clients, invoices, operators, users } from '../../db/schema/index.js';
import { markOnce } from '../../lib/once.js';
import { MAIL_RECIPIENT } from '../../lib/mail-recipients.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import type { Deps } from '../../types.js';
import { QUEUE, type JobHandler } from '../../lib/queue.js';

/**
 * upload-reminder: "No uploads for this month" to the company admins of clients on manual upload
 * whose operator contract asks for a reminder and who have no parsed invoice of that operator for
 * the month (default: the current month). Once per client and month (a settings key marks it).
 */
export function uploadReminderHandler(deps: Deps): JobHandler<{ month?: string }> {
  return async (job) => {
    await sendUploadReminders(deps, job.data.month);
  };
}

export async function sendUploadReminders(deps: Deps, monthArg?: string): Promise<number> {
  const { db } = deps.database;
  const month = monthArg ?? helsinkiMonth(deps.now());
  const wanted = await db
    .select({ clientId: clients.id, operatorId: operators.id, operatorName: operators.name })
    .from(clientOperators)
    .innerJoin(clients, eq(clients.id, clientOperators.clientId))
    .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
    .where(
      and(
        eq(clientOperators.uploadInvoiceReminder, true),
        eq(clients.invoiceUploadMethod, 'manual'),
        eq(clients.profileStatus, 'active'),
      ),
    );
  const done = await db
    .select({ clientId: invoices.clientId, operatorId: invoices.operatorId })
    .from(invoices)
    .where(and(eq(invoices.uploadState, 'uploaded'), eq(invoices.periodStart, `${month}-01`)));
  const has = new Set(done.map((d) => `${d.clientId}:${d.operatorId}`));
  const missing = new Map<number, string[]>();
  for (const w of wanted) {
    if (has.has(`${w.clientId}:${w.operatorId}`)) continue;
    missing.set(w.clientId, [...(missing.get(w.clientId) ?? []), w.operatorName]);
  }
  let sent = 0;
  for (const [clientId, ops] of missing) {
    if (!(await markOnce(db, `upload-reminder:${clientId}:${month}`, { operators: ops }))) continue;
    const admins = await db
      .select(MAIL_RECIPIENT)
      .from(users)
      .where(
        and(
          eq(users.clientId, clientId),
          inArray(users.roleId, [ROLE.companyAdmin]),
          eq(users.status, 'active'),
        ),
      );
    for (const a of admins) {
      await deps.jobs.send(QUEUE.sendMail, {
        to: a.email,
        ...mailTemplates(a.languageId).uploadReminder({ name: a.fullName, month, operators: ops }),
      });
      sent++;
    }
  }
  return sent;
}
