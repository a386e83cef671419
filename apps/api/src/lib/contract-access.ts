import {
  and,
  eq,
  exists,
  gt,
  gte,
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
import { isoDate } from './db-values.js';

/**
 * Spec §2/§4, the one rule for the greyed menu and the API guard: a client company is locked out
 * when it is terminated, unknown, or has no valid contract today: today within start..end of a
 * contract that is `active`, or `terminated` on a later day (a termination takes effect on its
 * termination date). As an SQL condition on a client id (a column or a value), so that the access
 * check can ask it in the same query as the caller's user row. `clientId` is a value or a column of
 * another table than `clients` (inside, `clients` names the subquery's own row).
 */
export function lockedOutSql(
  db: Executor,
  clientId: SQLWrapper | number,
  today: Date | Placeholder,
): SQL<boolean> {
  const day = today instanceof Date ? isoDate(today) : today;
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
                  and(eq(clientContracts.status, 'terminated'), gt(clientContracts.terminationDate, day)),
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
