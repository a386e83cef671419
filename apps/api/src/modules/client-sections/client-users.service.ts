import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  COMPANY_PERMISSIONS,
  ROLE,
  type ClientUser,
  type ClientUserInput,
  type ClientUserList,
  type ClientUserListQuery,
  type ClientUserSortKey,
  type ClientUserStatus,
} from '@kulu/shared';
import {
  clients,
  costCenters,
  subCompanies,
  userCostCenters,
  userSubCompanies,
  users,
} from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern, type Caller } from '../../lib/resource/resource.service.js';
import type { Deps } from '../../types.js';
import { sendActivationMail } from '../auth/auth.service.js';
import { conflictAs, emailTaken, isoTimeOrNull as iso } from '../../lib/db-values.js';

/**
 * Additional users of a client (spec §2 "additional users", §3 Client user: name, address, contact
 * no, email, country, status, sub-companies, cost centers, access permissions). They are the
 * client's users with the client-user role; the company admin is the client's profile. A new user
 * is not activated: the activation mail of the existing flow (auth.service `sendActivationMail`,
 * as Add Customer) lets them set a password, sent after the transaction commits. Their sub-companies
 * and cost centers limit what they see (the request Scope reads `user_sub_companies` and
 * `user_cost_centers`); none chosen: the whole client. Deactivating revokes their sessions.
 */

const AREA = 'clients';
const ENTITY = 'clientUser';

const isClientUser = (clientId: number) =>
  and(eq(users.clientId, clientId), eq(users.roleId, ROLE.clientUser));

const SORT: Record<ClientUserSortKey, SQL> = {
  name: sql`lower(${users.fullName})`,
  email: sql`lower(${users.email})`,
  status: sql`${users.status}`,
  country: sql`lower(${users.country})`,
  createdAt: sql`${users.createdAt}`,
  lastLoginAt: sql`${users.lastLoginAt}`,
};

/** The users as the API answers them, with their sub-companies and cost centers (by name). */
async function toEntities(db: Executor, rows: Array<typeof users.$inferSelect>): Promise<ClientUser[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const subs = await db
    .select({ userId: userSubCompanies.userId, id: subCompanies.id, name: subCompanies.name })
    .from(userSubCompanies)
    .innerJoin(subCompanies, eq(subCompanies.id, userSubCompanies.subCompanyId))
    .where(inArray(userSubCompanies.userId, ids))
    .orderBy(asc(subCompanies.name));
  const ccs = await db
    .select({ userId: userCostCenters.userId, id: costCenters.id, name: costCenters.name })
    .from(userCostCenters)
    .innerJoin(costCenters, eq(costCenters.id, userCostCenters.costCenterId))
    .where(inArray(userCostCenters.userId, ids))
    .orderBy(asc(costCenters.name));
  return rows.map((u) => ({
    id: u.id,
    clientId: u.clientId!,
    name: u.fullName,
    email: u.email,
    address: u.address,
    contactNumber: u.contactNumber,
    country: u.country,
    status: u.status,
    activated: u.activated,
    subCompanies: subs.filter((s) => s.userId === u.id).map(({ id, name }) => ({ id, name })),
    costCenters: ccs.filter((c) => c.userId === u.id).map(({ id, name }) => ({ id, name })),
    permissions: u.permissions ?? [],
    lastLoginAt: iso(u.lastLoginAt),
    createdAt: iso(u.createdAt)!,
  }));
}

export async function listClientUsers(
  db: Db,
  me: Caller,
  clientId: number,
  q: ClientUserListQuery,
): Promise<ClientUserList> {
  await me.scope.assertClient(clientId);
  const pattern = q.q ? containsPattern(q.q) : null;
  const where = and(
    isClientUser(clientId),
    q.status ? eq(users.status, q.status) : undefined,
    pattern
      ? or(
          ilike(users.fullName, pattern),
          ilike(users.email, pattern),
          ilike(sql`coalesce(${users.contactNumber}, '')`, pattern),
        )
      : undefined,
  );
  const dir = q.order === 'desc' ? desc : asc;
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(dir(SORT[q.sort ?? 'name']), dir(users.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [agg] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(users)
    .where(where);
  return { items: await toEntities(db, rows), total: agg.total, page: q.page, pageSize: q.pageSize };
}

async function oneUser(db: Executor, clientId: number, id: number, lock = false) {
  const base = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isClientUser(clientId)));
  const [row] = lock ? await base.for('update') : await base;
  if (!row) throw notFound();
  return row;
}

const entityOf = async (db: Executor, clientId: number, id: number) =>
  (await toEntities(db, [await oneUser(db, clientId, id)]))[0];

/** A client user of the client (404 for another client's id, or a user that is not one). */
export async function getClientUser(db: Db, me: Caller, clientId: number, id: number): Promise<ClientUser> {
  await me.scope.assertClient(clientId);
  return entityOf(db, clientId, id);
}

/**
 * Sub-companies and cost centers must be the client's (400 per field otherwise); a cost center of
 * a sub-company must be of one of the chosen sub-companies when some are chosen.
 */
async function checkLimits(tx: Tx, clientId: number, input: ClientUserInput) {
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
function checkPermissions(me: Caller, wanted: readonly string[]): string[] {
  const grantable = grantablePermissions(me);
  if (wanted.some((p) => !grantable.includes(p)))
    throw new AppError(400, 'validation', { permissions: 'invalid' });
  return [...new Set(wanted)];
}

export const grantablePermissions = (me: Caller): string[] =>
  COMPANY_PERMISSIONS.filter((p) => me.user.permissions.includes(p));

async function setLimits(tx: Tx, userId: number, subIds: number[], ccIds: number[]) {
  await tx.delete(userSubCompanies).where(eq(userSubCompanies.userId, userId));
  await tx.delete(userCostCenters).where(eq(userCostCenters.userId, userId));
  if (subIds.length)
    await tx.insert(userSubCompanies).values(subIds.map((subCompanyId) => ({ userId, subCompanyId })));
  if (ccIds.length)
    await tx.insert(userCostCenters).values(ccIds.map((costCenterId) => ({ userId, costCenterId })));
}

/** A unique violation that slipped past the check (a concurrent write) → the spec's 409. */
function mapConflict(err: unknown): never {
  return conflictAs(err, 'clientUserEmailExists');
}

/** Client users belong to companies (a consultant-type client's people are consultants). */
async function assertCompany(tx: Tx, clientId: number) {
  const [c] = await tx.select({ type: clients.type }).from(clients).where(eq(clients.id, clientId));
  if (!c) throw notFound();
  if (c.type !== 'company') throw new AppError(409, 'clientUsersCompanyOnly');
}

const profileOf = (input: ClientUserInput) => ({
  fullName: input.name,
  email: input.email,
  address: input.address,
  contactNumber: input.contactNumber,
  country: input.country,
  status: input.status,
});

export async function createClientUser(
  deps: Deps,
  me: Caller,
  clientId: number,
  input: ClientUserInput,
): Promise<ClientUser> {
  const { db } = deps.database;
  await me.scope.assertClient(clientId);
  let user: ClientUser;
  try {
    user = await db.transaction(async (tx) => {
      await assertCompany(tx, clientId);
      const permissions = checkPermissions(me, input.permissions);
      const { subIds, ccIds } = await checkLimits(tx, clientId, input);
      if (await emailTaken(tx, input.email, null)) throw new AppError(409, 'clientUserEmailExists');
      const [row] = await tx
        .insert(users)
        .values({
          ...profileOf(input),
          roleId: ROLE.clientUser,
          clientId,
          permissions,
          languageId: me.user.languageId,
          activated: false,
        })
        .returning({ id: users.id });
      await setLimits(tx, row.id, subIds, ccIds);
      const after = await entityOf(tx, clientId, row.id);
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'create',
        entity: ENTITY,
        entityId: row.id,
        after,
      });
      return after;
    });
  } catch (err) {
    mapConflict(err);
  }
  // After the commit: a failed mail does not undo the user (the link can be sent again by the
  // forgot-password flow, or by saving a new email).
  await sendActivationMail(deps, user.id);
  return user;
}

export async function updateClientUser(
  deps: Deps,
  me: Caller,
  clientId: number,
  id: number,
  input: ClientUserInput,
): Promise<ClientUser> {
  const { db } = deps.database;
  await me.scope.assertClient(clientId);
  let result: { user: ClientUser; remail: boolean };
  try {
    result = await db.transaction(async (tx) => {
      const row = await oneUser(tx, clientId, id, true);
      const before = (await toEntities(tx, [row]))[0];
      const permissions = checkPermissions(me, input.permissions);
      const { subIds, ccIds } = await checkLimits(tx, clientId, input);
      if (await emailTaken(tx, input.email, id)) throw new AppError(409, 'clientUserEmailExists');
      await tx
        .update(users)
        .set({
          ...profileOf(input),
          permissions,
          // New limits, permissions or status apply at once: old sessions end.
          tokenVersion: sql`${users.tokenVersion} + 1`,
        })
        .where(eq(users.id, id));
      await setLimits(tx, id, subIds, ccIds);
      const after = await entityOf(tx, clientId, id);
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'update',
        entity: ENTITY,
        entityId: id,
        before,
        after,
      });
      // Not yet activated and the email changed: the link goes to the new address.
      const remail = !row.activated && row.email.toLowerCase() !== input.email.toLowerCase();
      return { user: after, remail };
    });
  } catch (err) {
    mapConflict(err);
  }
  if (result.remail) await sendActivationMail(deps, id);
  return result.user;
}

/** Deactivate (sessions revoked, login refused) or activate again. */
export async function setClientUserStatus(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  status: ClientUserStatus,
): Promise<ClientUser> {
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    const row = await oneUser(tx, clientId, id, true);
    const before = (await toEntities(tx, [row]))[0];
    await tx
      .update(users)
      .set({
        status,
        ...(status === 'inactive' ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      })
      .where(eq(users.id, id));
    const after = await entityOf(tx, clientId, id);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: status === 'inactive' ? 'deactivate' : 'activate',
      entity: ENTITY,
      entityId: id,
      before,
      after,
    });
    return after;
  });
}
