import { eq, inArray } from 'drizzle-orm';
import { clients, consultantUserCompanies, users } from '../db/schema/index.js';
import type { Deps } from '../types.js';
import { DEMO_CLIENTS, DEMO_CONSULTANT } from './data.js';

/**
 * A consultant sees only the companies assigned to them (docs/decisions/0007); the demo consultant,
 * one of the provider's own consultants, is assigned both demo companies. Idempotent.
 */
export async function assignDemoConsultant(deps: Deps): Promise<void> {
  const { db } = deps.database;
  const [consultant] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_CONSULTANT.email));
  if (!consultant) return;
  const companies = await db
    .select({ id: clients.id })
    .from(clients)
    .where(
      inArray(
        clients.companyName,
        DEMO_CLIENTS.map((c) => c.companyName),
      ),
    );
  if (!companies.length) return;
  await db
    .insert(consultantUserCompanies)
    .values(companies.map((c) => ({ userId: consultant.id, clientId: c.id })))
    .onConflictDoNothing();
}
