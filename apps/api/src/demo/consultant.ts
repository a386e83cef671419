import { and, eq } from 'drizzle-orm';
import { clients, consultantCompanies, consultantUserCompanies, users } from '../db/schema/index.js';
import type { Deps } from '../types.js';
import { demoClientRows, DEMO_CONSULTANT, DEMO_CONSULTANT_FIRM } from './data.js';

/**
 * A consultant sees only the companies assigned to them (docs/decisions/0007); the demo consultant,
 * one of the provider's own consultants, is assigned both demo companies, and so is the demo
 * consultant firm (its users see them, and Consultant Billing bills it for them). Idempotent.
 */
export async function assignDemoConsultant(deps: Deps): Promise<void> {
  const { db } = deps.database;
  const [consultant] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_CONSULTANT.email));
  if (!consultant) return;
  const companies = await demoClientRows(deps);
  if (!companies.length) return;
  await db
    .insert(consultantUserCompanies)
    .values(companies.map((c) => ({ userId: consultant.id, clientId: c.id })))
    .onConflictDoNothing();
  const [firm] = await db
    .select({ id: clients.id })
    .from(clients)
    .where(and(eq(clients.businessId, DEMO_CONSULTANT_FIRM.businessId), eq(clients.type, 'consultant')));
  if (!firm) return;
  await db
    .insert(consultantCompanies)
    .values(companies.map((c) => ({ consultantClientId: firm.id, clientId: c.id })))
    .onConflictDoNothing();
}
