import { and, asc, eq, inArray, or } from 'drizzle-orm';
import { helsinkiDay, ROLE } from '@kulu/shared';
import { clientOperators, clients, operators, users } from '../../db/schema/index.js';
import { markOnce } from '../../lib/once.js';
import { MAIL_RECIPIENT } from '../../lib/mail-recipients.js';
import { consultantIdsOfClient } from '../../lib/scope.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import { QUEUE } from '../../lib/queue.js';
import type { Deps } from '../../types.js';

/**
 * operator-contract-reminder (daily): on an operator contract's end date reminder day, the
 * client's company admins, the provider's admins and the consultants assigned to the client
 * (the Scope's rule, `consultantIdsOfClient`) get a mail naming the client, the operator
 * and the contract's end date. Each contract is mailed once for its reminder day (a settings key
 * `operator-contract-reminder:<client_operators.id>:<day>` marks it, written before the mails are
 * queued), so a second run or a second instance sends nothing more; a reminder moved to another
 * day is mailed on that day. Returns the number of mails queued.
 */
export async function sendOperatorContractReminders(deps: Deps, dayArg?: string): Promise<number> {
  const { db } = deps.database;
  const day = dayArg ?? helsinkiDay(deps.now());
  const due = await db
    .select({
      id: clientOperators.id,
      clientId: clients.id,
      companyName: clients.companyName,
      operatorName: operators.name,
      endDate: clientOperators.contractEndDate,
    })
    .from(clientOperators)
    .innerJoin(clients, eq(clients.id, clientOperators.clientId))
    .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
    .where(and(eq(clientOperators.contractEndReminder, day), eq(clients.profileStatus, 'active')))
    .orderBy(asc(clients.companyName), asc(operators.name));
  let sent = 0;
  for (const c of due) {
    if (!(await markOnce(db, `operator-contract-reminder:${c.id}:${day}`, { day }))) continue;
    const consultants = await consultantIdsOfClient(db, c.clientId);
    const to = await db
      .select(MAIL_RECIPIENT)
      .from(users)
      .where(
        and(
          or(
            and(eq(users.clientId, c.clientId), eq(users.roleId, ROLE.companyAdmin)),
            inArray(users.roleId, [ROLE.providerAdmin]),
            consultants.length
              ? and(eq(users.roleId, ROLE.consultant), inArray(users.id, consultants))
              : undefined,
          ),
          eq(users.status, 'active'),
          eq(users.activated, true),
        ),
      )
      .orderBy(asc(users.id));
    for (const u of to) {
      await deps.jobs.send(QUEUE.sendMail, {
        to: u.email,
        ...mailTemplates(u.languageId).operatorContractReminder({
          name: u.fullName,
          companyName: c.companyName,
          operatorName: c.operatorName,
          endDate: c.endDate,
        }),
      });
      sent++;
    }
  }
  return sent;
}
