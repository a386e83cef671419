import { and, eq, inArray } from 'drizzle-orm';
import {
  COMPANY_PERMISSIONS,
  type ClientUser,
  type ClientUserInput,
  type ClientUserStatus,
} from '@kulu/shared';
import {
  clients,
  costCenters,
  subCompanies,
  userCostCenters,
  userSubCompanies,
} from '../../db/schema/index.js';
import type { Db, Tx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { setUserStatus } from '../../lib/db-values.js';
import { rowWorkflow, type ResourceDef } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';

/**
 * What the additional users (client-users.routes.ts, a resource of the generic mechanism) have of
 * their own: the rules of a write (a company's users only; sub-companies, cost centers and
 * permissions the client and the caller may give), the write of their sub-companies and cost
 * centers, and the deactivate / activate workflow.
 */

/** Client users belong to companies (a consultant-type client's people are consultants). */
export async function assertCompany(tx: Tx, clientId: number) {
  const [c] = await tx.select({ type: clients.type }).from(clients).where(eq(clients.id, clientId));
  if (!c) throw notFound();
  if (c.type !== 'company') throw new AppError(409, 'clientUsersCompanyOnly');
}

/**
 * Sub-companies and cost centers must be the client's (400 per field otherwise); a cost center of
 * a sub-company must be of one of the chosen sub-companies when some are chosen.
 */
export async function checkLimits(tx: Tx, clientId: number, input: ClientUserInput) {
  const fields: Record<string, string> = {};
  const subIds = [...new Set(input.subCompanyIds)];
  const ccIds = [...new Set(input.costCenterIds)];
  if (subIds.length) {
    const found = await tx
      .select({ id: subCompanies.id })
      .from(subCompanies)
      .where(and(eq(subCompanies.clientId, clientId), inArray(subCompanies.id, subIds)));
    if (found.length !== subIds.length) fields.subCompanyIds = 'invalid';
  }
  if (ccIds.length) {
    const found = await tx
      .select({ id: costCenters.id, subCompanyId: costCenters.subCompanyId })
      .from(costCenters)
      .where(and(eq(costCenters.clientId, clientId), inArray(costCenters.id, ccIds)));
    const outside = found.some(
      (c) => subIds.length > 0 && c.subCompanyId != null && !subIds.includes(c.subCompanyId),
    );
    if (found.length !== ccIds.length || outside) fields.costCenterIds = 'invalid';
  }
  if (Object.keys(fields).length) throw new AppError(400, 'validation', fields);
  return { subIds, ccIds };
}

/** Only permissions a company may have and that the caller holds themselves. */
export function checkPermissions(me: Caller, wanted: readonly string[]): string[] {
  const grantable = grantablePermissions(me);
  if (wanted.some((p) => !grantable.includes(p)))
    throw new AppError(400, 'validation', { permissions: 'invalid' });
  return [...new Set(wanted)];
}

export const grantablePermissions = (me: Caller): string[] =>
  COMPANY_PERMISSIONS.filter((p) => me.user.permissions.includes(p));

/** The user's sub-companies and cost centers: the given ones, no others. */
export async function setLimits(tx: Tx, userId: number, subIds: number[], ccIds: number[]) {
  await tx.delete(userSubCompanies).where(eq(userSubCompanies.userId, userId));
  await tx.delete(userCostCenters).where(eq(userCostCenters.userId, userId));
  if (subIds.length)
    await tx.insert(userSubCompanies).values(subIds.map((subCompanyId) => ({ userId, subCompanyId })));
  if (ccIds.length)
    await tx.insert(userCostCenters).values(ccIds.map((costCenterId) => ({ userId, costCenterId })));
}

/** Deactivate (sessions revoked, login refused) or activate again. */
export async function setClientUserStatus(
  db: Db,
  def: ResourceDef,
  me: Caller,
  clientId: number,
  id: number,
  status: ClientUserStatus,
): Promise<ClientUser> {
  const action = status === 'inactive' ? 'deactivate' : 'activate';
  return rowWorkflow(db, def, me, clientId, id, action, (tx) => setUserStatus(tx, id, status));
}
