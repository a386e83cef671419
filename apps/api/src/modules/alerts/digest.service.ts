import { and, asc, eq, inArray, isNull, lt, max, or } from 'drizzle-orm';
import { ACCOUNT_ROUTES, alertsPath, detailPath, type Alert, type AlertDigest } from '@kulu/shared';
import { alerts, users } from '../../db/schema/index.js';
import { mailLanguage, mailTemplates } from '../../lib/mail-templates/index.js';
import { consultantIdsOfClient } from '../../lib/scope.js';
import { callerForUser } from '../../plugins/access.js';
import type { Deps } from '../../types.js';
import { digestAlerts } from './alerts.service.js';

/**
 * The alert digest mail (issue 26, decision 0026): one mail per recipient listing the alerts new to
 * them since their last digest, never a mail per alert. A recipient is an active user holding the
 * `alerts` permission whose Scope (the app's own, built as for their requests) sees the alerts; a
 * user limited to sub-companies or cost centers gets only theirs. Each user keeps a mark, the
 * highest alert id already digested for them (`users.alert_digest_after`).
 */

/** Alerts listed in one mail, the most severe first; the rest are counted ("and N more"). */
export const DIGEST_ROWS = 20;

type Candidate = { id: number; after: number; mode: AlertDigest };

/**
 * Sends the digests of the users who chose one of `modes`: after an invoice's evaluation
 * (`clientId`: only users who may see that client: its own users, provider users, its consultants)
 * or in the daily run (every user). Returns how many mails went out. A failed send puts the user's
 * mark back and is thrown after the others were tried, so the job's retry mails only them.
 */
export async function sendAlertDigests(deps: Deps, modes: AlertDigest[], clientId?: number): Promise<number> {
  const { db } = deps.database;
  const [{ last }] = await db.select({ last: max(alerts.id) }).from(alerts);
  if (last == null) return 0;
  const near =
    clientId == null
      ? undefined
      : or(
          isNull(users.clientId),
          eq(users.clientId, clientId),
          inArray(users.id, [0, ...(await consultantIdsOfClient(db, clientId))]),
        );
  const candidates: Candidate[] = await db
    .select({ id: users.id, after: users.alertDigestAfter, mode: users.alertDigest })
    .from(users)
    .where(
      and(
        eq(users.status, 'active'),
        eq(users.activated, true),
        inArray(users.alertDigest, modes),
        lt(users.alertDigestAfter, last),
        near,
      ),
    )
    .orderBy(asc(users.id));
  let sent = 0;
  let failed: unknown = null;
  for (const c of candidates) {
    try {
      if (await digestFor(deps, c)) sent++;
    } catch (e) {
      failed ??= e;
    }
  }
  if (failed) throw failed;
  return sent;
}

/** One user's digest: read what is new to them, move their mark (once), then mail. */
async function digestFor(deps: Deps, c: Candidate): Promise<boolean> {
  const { db } = deps.database;
  const found = await callerForUser(db, c.id, null, deps.now());
  if (!found || found.lockedOut || !found.caller.user.permissions.includes('alerts')) return false;
  const { user: me, scope } = found.caller;
  const digest = await digestAlerts(db, scope, c.after, DIGEST_ROWS, mailLanguage(me.languageId));
  if (digest.lastId == null) return false;
  // The mark moves only from the value read: of two runs at once (a retried job beside the first)
  // one mails these alerts, the other nothing.
  const mine = (after: number) => and(eq(users.id, c.id), eq(users.alertDigestAfter, after));
  const claimed = await db
    .update(users)
    .set({ alertDigestAfter: digest.lastId })
    .where(mine(c.after))
    .returning({ id: users.id });
  if (!claimed.length || !digest.items.length) return false;

  // Links from PUBLIC_URL only, to the web's hash routes under the user's base path.
  const url = (path: string) => `${deps.config.PUBLIC_URL.replace(/\/+$/, '')}/#${path}`;
  const home = scope.isProvider ? '/admin' : '/company';
  const target = (a: Alert) =>
    a.subscriptionId != null
      ? detailPath(home, 'subscription', a.subscriptionId)
      : a.invoiceId != null
        ? detailPath(home, 'invoice', a.invoiceId)
        : alertsPath(home);
  const mail = mailTemplates(me.languageId).alertDigest({
    name: me.fullName,
    mode: c.mode === 'immediate' ? 'immediate' : 'daily',
    lines: digest.items.map((a) => ({
      severity: a.severity,
      text: a.text,
      client: scope.isProvider ? a.clientName : null,
      link: url(target(a)),
    })),
    more: digest.open - digest.items.length,
    alertsLink: url(alertsPath(home)),
    profileLink: url(ACCOUNT_ROUTES.profile),
  });
  try {
    await deps.mailer.send({ to: me.email, ...mail });
  } catch (e) {
    await db.update(users).set({ alertDigestAfter: c.after }).where(mine(digest.lastId));
    throw e;
  }
  return true;
}
