import { settings } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';

/**
 * Marks `key` done in the settings, with `value` as its record: true for the one caller that
 * marks it first, false for every later one (a second run or a second instance), so that what
 * follows (a reminder mailed, a demo queued) happens once.
 */
export async function markOnce(db: Executor, key: string, value: unknown): Promise<boolean> {
  const marked = await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  return marked.length > 0;
}
