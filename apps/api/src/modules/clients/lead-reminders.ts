import { and, asc, eq } from 'drizzle-orm';
import { helsinkiDay, ROLE } from '@kulu/shared';
import { clients, users } from '../../db/schema/index.js';
import { markOnce } from '../../lib/once.js';
import { MAIL_RECIPIENT } from '../../lib/mail-recipients.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import { QUEUE } from '../../lib/queue.js';
import type { Deps } from '../../types.js';

/**
 * lead-reminder (daily): on a lead's reminder day the provider's admins get one mail listing the
 * day's leads. Each lead is mailed once per day (a settings key marks it), so a second run or a
 * second instance sends nothing more. Returns the number of mails queued.
 */
export async function sendLeadReminders(deps: Deps, dayArg?: string): Promise<number> {
  const { db } = deps.database;
  const day = dayArg ?? helsinkiDay(deps.now());
  const due = await db
    .select({ id: clients.id, companyName: clients.companyName, leadStatus: clients.leadStatus })
    .from(clients)
    .where(and(eq(clients.interestStatus, 'lead'), eq(clients.reminderDate, day)))
    .orderBy(asc(clients.companyName));
  const leads: typeof due = [];
  for (const lead of due) {
    if (await markOnce(db, `lead-reminder:${lead.id}:${day}`, { day })) leads.push(lead);
  }
  if (!leads.length) return 0;
  const admins = await db
    .select(MAIL_RECIPIENT)
    .from(users)
    .where(and(eq(users.roleId, ROLE.providerAdmin), eq(users.status, 'active'), eq(users.activated, true)));
  const link = `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/#/client-management/client-management`;
  for (const a of admins) {
    await deps.jobs.send(QUEUE.sendMail, {
      to: a.email,
      ...mailTemplates(a.languageId).leadReminder({ name: a.fullName, day, leads, link }),
    });
  }
  return admins.length;
}
