import { and, eq, gt, gte, lte, or, sql } from 'drizzle-orm';
import { clientContracts, clients } from '../db/schema/index.js';
import type { Executor } from '../db/client.js';

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Spec §2/§4, the one rule for the greyed menu and the API guard: a client company is locked out
 * when it is terminated, unknown, or has no valid contract today: today within start..end of a
 * contract that is `active`, or `terminated` on a later day (a termination takes effect on its
 * termination date). One query. The session info (`menuDisabled`) and the access plugin (403
 * `menuDisabled` on the company's data routes) both call this.
 */
export async function isClientLockedOut(db: Executor, clientId: number, today: Date): Promise<boolean> {
  const day = isoDate(today);
  const [row] = await db
    .select({
      status: clients.profileStatus,
      valid: sql<boolean>`exists (${db
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
        )})`,
    })
    .from(clients)
    .where(eq(clients.id, clientId));
  return !row || row.status === 'terminated' || !row.valid;
}
