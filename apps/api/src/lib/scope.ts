import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { isProviderRole } from '@kulu/shared';
import type { AuthUser } from '../types.js';

/**
 * Tenancy in one place: the condition that limits a query on client-owned rows to what the
 * caller may see. Provider users see every client; company admins their client; client users
 * their client, cut to their sub-companies and cost centers when they have such limits.
 */
export function scopeCondition(
  me: AuthUser,
  cols: { clientId: PgColumn; subCompanyId?: PgColumn; costCenterId?: PgColumn },
): SQL | undefined {
  if (isProviderRole(me.roleId)) return undefined;
  if (me.clientId == null) return sql`false`;
  const parts: SQL[] = [eq(cols.clientId, me.clientId)];
  if (me.subCompanyIds && cols.subCompanyId) parts.push(inArray(cols.subCompanyId, me.subCompanyIds));
  if (me.costCenterIds && cols.costCenterId) parts.push(inArray(cols.costCenterId, me.costCenterIds));
  return and(...parts);
}
