import { lte, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { rateCounters } from '../db/schema/index.js';

/** Every counter's window: the limits are "per hour" (README, configuration). */
export const RATE_WINDOW_MS = 3_600_000;

/** The counters' keys: what is counted, and for whom (an address is lower-cased). */
export const RATE_KEY = {
  /** Mails a stranger can have sent to one recipient (reset links, sign-up notices). */
  mailTo: (email: string) => `mail:${email.trim().toLowerCase()}`,
  /** Sign-ups from one client address. */
  signupFrom: (ip: string) => `signup-ip:${ip}`,
  /** Sign-ups on the whole service. */
  signups: 'signups',
} as const;

/**
 * Counts one event under `key` and says whether it is within `max` in the key's current hour (issue
 * 37, item 5). A window opens at the key's first event after the last one ended; refused events are
 * counted too, but never lengthen the window. One statement, in the database: events arriving at once,
 * on any API instance, are counted one after the other (the row's lock), never twice as the same.
 * A call that opens a window also removes the rows of ended windows (no key outlives its hour by
 * more than the next window opened anywhere).
 */
export async function countEvent(db: Executor, key: string, max: number, now: Date): Promise<boolean> {
  const ended = new Date(now.getTime() - RATE_WINDOW_MS);
  const over = sql`"rate_counters"."window_start" <= ${ended.toISOString()}::timestamptz`;
  const [row] = await db
    .insert(rateCounters)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateCounters.key,
      set: {
        windowStart: sql`case when ${over} then excluded.window_start else "rate_counters"."window_start" end`,
        count: sql`case when ${over} then 1 else "rate_counters"."count" + 1 end`,
      },
    })
    .returning({ count: rateCounters.count });
  if (row!.count === 1) await db.delete(rateCounters).where(lte(rateCounters.windowStart, ended));
  return row!.count <= max;
}
