import { and, asc, eq } from 'drizzle-orm';
import { clients, costCenters, subCompanies } from '../../db/schema/index.js';
import type { Executor } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';

/** Sub-companies the caller may see: all for the provider, the client's own (or the user's allowed ones). */
export function listSubCompanies(db: Executor, scope: Scope) {
  return db
    .select({ id: subCompanies.id, name: subCompanies.name, clientId: subCompanies.clientId })
    .from(subCompanies)
    .where(scope.where({ clientId: subCompanies.clientId, subCompanyId: subCompanies.id }))
    .orderBy(asc(subCompanies.clientId), asc(subCompanies.name));
}

export function listCostCenters(db: Executor, scope: Scope) {
  return db
    .select({ id: costCenters.id, name: costCenters.name, clientId: costCenters.clientId })
    .from(costCenters)
    .where(
      scope.where({
        clientId: costCenters.clientId,
        subCompanyId: costCenters.subCompanyId,
        costCenterId: costCenters.id,
      }),
    )
    .orderBy(asc(costCenters.clientId), asc(costCenters.name));
}

/** Client companies the caller may work for (upload pickers): all for the provider, else their own. */
export function listClientOptions(db: Executor, scope: Scope) {
  return db
    .select({ id: clients.id, name: clients.companyName })
    .from(clients)
    .where(and(eq(clients.type, 'company'), scope.where({ clientId: clients.id })))
    .orderBy(asc(clients.companyName));
}
