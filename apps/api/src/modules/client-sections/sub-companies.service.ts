import { asc, eq } from 'drizzle-orm';
import { clientBillingPlans, costCenters, subCompanies } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

/**
 * What the sub-company section has of its own beside its declaration (sub-companies.routes.ts,
 * the generic resource mechanism): the choices of the sub-company and client-user forms.
 */

/** The choices of the sections' forms (billing plans, the client's sub-companies and cost centers). */
export async function clientOptions(db: Db, clientId: number) {
  const billingPlans = await db
    .select({ id: clientBillingPlans.id, name: clientBillingPlans.name })
    .from(clientBillingPlans)
    .orderBy(asc(clientBillingPlans.name));
  const subs = await db
    .select({ id: subCompanies.id, name: subCompanies.name })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, clientId))
    .orderBy(asc(subCompanies.name));
  const ccs = await db
    .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
    .from(costCenters)
    .where(eq(costCenters.clientId, clientId))
    .orderBy(asc(costCenters.name));
  return { billingPlans, subCompanies: subs, costCenters: ccs };
}
