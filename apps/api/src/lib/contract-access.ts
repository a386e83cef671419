import {
  and,
  eq,
  exists,
  gt,
  gte,
  isNotNull,
  isNull,
  lte,
  ne,
  or,
  sql,
  type Placeholder,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { clientContracts, clients } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';
import { helsinkiDay } from '@kulu/shared';

/**
 * Spec §2/§4, the one rule for the greyed menu and the API guard: a client (a company or a
 * consultant firm) is locked out when it is terminated, unknown, or has no valid contract today.
 * Valid, by status, on a day within the contract's start..end:
 * - `active`: valid;
 * - `terminated`: valid before its termination date (a termination takes effect on its date), and
 *   only when it was in force when terminated: activated, never made inactive (only an active
 *   contract can be terminated; a draft or inactive one terminated before that rule never opens
 *   the door);
 * - `draft` (never started) and `inactive` (stopped): never valid.
 * As an SQL condition on a client id (a column or a value), so that the access check can ask it in
 * the same query as the caller's user row. `clientId` is a value or a column of another table than
 * `clients` (inside, `clients` names the subquery's own row). `today` is the business day in
 * Europe/Helsinki (`helsinkiDay`).
 */
export function lockedOutSql(
  db: Executor,
  clientId: SQLWrapper | number,
  today: Date | Placeholder,
): SQL<boolean> {
  const day = today instanceof Date ? helsinkiDay(today) : today;
  const open = db
    .select({ one: sql`1` })
    .from(clients)
    .where(
      and(
        eq(clients.id, clientId as number),
        ne(clients.profileStatus, 'terminated'),
        exists(
          db
            .select({ one: sql`1` })
            .from(clientContracts)
            .where(
              and(
                eq(clientContracts.clientId, clients.id),
                lte(clientContracts.startDate, day),
                gte(clientContracts.endDate, day),
                or(
                  eq(clientContracts.status, 'active'),
                  and(
                    eq(clientContracts.status, 'terminated'),
                    gt(clientContracts.terminationDate, day),
                    isNotNull(clientContracts.activatedAt),
                    isNull(clientContracts.inactiveDate),
                  ),
                ),
              ),
            ),
        ),
      ),
    );
  return sql<boolean>`not exists (${open})`;
}

/** Whether a client company is locked out today (`lockedOutSql`), in one query. */
export async function isClientLockedOut(db: Executor, clientId: number, today: Date): Promise<boolean> {
  const { rows } = await db.execute<{ locked: boolean }>(
    sql`select ${lockedOutSql(db, clientId, today)} as locked`,
  );
  return rows[0]!.locked;
}
