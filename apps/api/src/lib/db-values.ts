import { and, eq, ne, sql } from 'drizzle-orm';
import type { MessageCode } from '@kulu/shared';
import { users } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';
import { AppError } from './errors.js';

/** Small helpers the services share for values to and from the database. */

/** A timestamp as the API answers it: ISO 8601 in UTC. */
export const isoTime = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString();

/** `isoTime`, or null for none. */
export const isoTimeOrNull = (d: Date | string | null): string | null => (d == null ? null : isoTime(d));

/**
 * A unique violation (PostgreSQL 23505) that slipped past a service's own check (a concurrent
 * write) becomes a 409 with `code`, or with the code of the index it broke (`byIndex`, else
 * `code`); any other error is thrown as it is.
 */
export function conflictAs(
  err: unknown,
  code: MessageCode,
  byIndex: Record<string, MessageCode> = {},
): never {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  if ((e.code ?? e.cause?.code) === '23505') {
    throw new AppError(409, byIndex[e.constraint ?? e.cause?.constraint ?? ''] ?? code);
  }
  throw err;
}

/** Whether another user (not `selfId`) has this email address, whatever its case. */
export async function emailTaken(db: Executor, email: string, selfId: number | null): Promise<boolean> {
  const [hit] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.email}) = lower(${email})`, selfId == null ? undefined : ne(users.id, selfId)),
    )
    .limit(1);
  return !!hit;
}

/** Sets a user's status; deactivating also revokes their sessions (the token version moves on). */
export async function setUserStatus(db: Executor, id: number, status: 'active' | 'inactive'): Promise<void> {
  await db
    .update(users)
    .set({ status, ...(status === 'inactive' ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}) })
    .where(eq(users.id, id));
}
