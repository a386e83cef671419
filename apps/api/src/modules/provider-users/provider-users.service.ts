import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  effectivePermissions,
  PROVIDER_ROLE_IDS,
  PROVIDER_USER_ROLES,
  providerRolePermissions,
  type ProviderUser,
  type ProviderUserInputParsed,
  type ProviderUserList,
  type ProviderUserListQuery,
  type ProviderUserOptions,
  type ProviderUserRole,
  type ProviderUserSortKey,
  type ProviderUserStatus,
} from '@kulu/shared';
import { clients, consultantUserCompanies, users } from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { changeLog } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import type { Caller } from '../../types.js';
import type { Deps } from '../../types.js';
import { sendActivationMail } from '../auth/auth.service.js';
import { conflictAs, emailTaken, isoTimeOrNull as iso, setUserStatus } from '../../lib/db-values.js';

/**
 * The provider's own users (issue 11; docs/decisions/0012-provider-users.md): its admins and
 * consultants (users of a provider role without a client; a consultant-type client's people are
 * managed on that client's page). Each holds the permissions chosen for them within their role's
 * set; a consultant sees the companies assigned to them personally (the Scope's one rule).
 * Nobody can lock themselves out: no deactivating oneself, changing one's own role or dropping
 * one's own `users.manage`.
 */

/** The activity log row of a change of provider user `id` by the caller. */
const logUserChange = changeLog('users', 'providerUser');
const MANAGE = 'users.manage';

const isProviderUser = and(inArray(users.roleId, Object.values(PROVIDER_ROLE_IDS)), isNull(users.clientId));

const roleOf = (roleId: number): ProviderUserRole =>
  PROVIDER_USER_ROLES.find((r) => PROVIDER_ROLE_IDS[r] === roleId) ?? 'consultant';

const SORT: Record<ProviderUserSortKey, SQL> = {
  name: sql`lower(${users.fullName})`,
  email: sql`lower(${users.email})`,
  role: sql`${users.roleId}`,
  status: sql`${users.status}`,
  createdAt: sql`${users.createdAt}`,
  lastLoginAt: sql`${users.lastLoginAt}`,
};

/** A consultant's assigned companies within the caller's Scope (the companies the caller sees). */
const companiesInScope = (scope: Scope) => scope.where({ clientId: consultantUserCompanies.clientId });

async function toEntities(
  db: Executor,
  scope: Scope,
  rows: Array<typeof users.$inferSelect>,
): Promise<ProviderUser[]> {
  if (!rows.length) return [];
  const companies = await db
    .select({ userId: consultantUserCompanies.userId, id: clients.id, name: clients.companyName })
    .from(consultantUserCompanies)
    .innerJoin(clients, eq(clients.id, consultantUserCompanies.clientId))
    .where(
      and(
        inArray(
          consultantUserCompanies.userId,
          rows.map((r) => r.id),
        ),
        companiesInScope(scope),
      ),
    )
    .orderBy(sql`lower(${clients.companyName})`, clients.id);
  return rows.map((u) => ({
    id: u.id,
    name: u.fullName,
    email: u.email,
    contactNumber: u.contactNumber,
    role: roleOf(u.roleId),
    status: u.status,
    activated: u.activated,
    permissions: effectivePermissions(u.roleId, u.permissions),
    companies: companies.filter((c) => c.userId === u.id).map(({ id, name }) => ({ id, name })),
    lastLoginAt: iso(u.lastLoginAt),
    createdAt: iso(u.createdAt)!,
  }));
}

export async function listProviderUsers(
  db: Db,
  scope: Scope,
  q: ProviderUserListQuery,
): Promise<ProviderUserList> {
  const pattern = q.q ? containsPattern(q.q) : null;
  const where = and(
    isProviderUser,
    q.role ? eq(users.roleId, PROVIDER_ROLE_IDS[q.role]) : undefined,
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
  return { items: await toEntities(db, scope, rows), total: agg.total, page: q.page, pageSize: q.pageSize };
}

async function oneUser(db: Executor, id: number, lock = false) {
  const base = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isProviderUser));
  const [row] = lock ? await base.for('update') : await base;
  if (!row) throw notFound();
  return row;
}

const entityOf = async (db: Executor, scope: Scope, id: number) =>
  (await toEntities(db, scope, [await oneUser(db, id)]))[0];

export const getProviderUser = (db: Db, scope: Scope, id: number) => entityOf(db, scope, id);

/** What a consultant can be assigned: companies (not leads or consultants) within the caller's Scope. */
const assignable = (scope: Scope) =>
  and(
    eq(clients.type, 'company'),
    eq(clients.interestStatus, 'company'),
    scope.where({ clientId: clients.id }),
  );

/** Companies a consultant can be assigned (as `assignable`), and each role's set. */
export async function providerUserOptions(db: Db, scope: Scope): Promise<ProviderUserOptions> {
  const companies = await db
    .select({ id: clients.id, name: clients.companyName })
    .from(clients)
    .where(assignable(scope))
    .orderBy(sql`lower(${clients.companyName})`, clients.id);
  return {
    companies,
    permissions: {
      admin: [...providerRolePermissions('admin')],
      consultant: [...providerRolePermissions('consultant')],
    },
  };
}

/** The list stored for the user: only permissions of the role (400 otherwise); none given: all of them. */
function permissionsOf(input: ProviderUserInputParsed): string[] {
  const roleSet = providerRolePermissions(input.role);
  const wanted = input.permissions ?? roleSet;
  if (wanted.some((p) => !roleSet.includes(p)))
    throw new AppError(400, 'validation', { permissions: 'invalid' });
  return roleSet.filter((p) => wanted.includes(p));
}

/** A consultant's companies must be assignable by the caller (400 otherwise); an admin has none. */
async function companiesOf(tx: Tx, scope: Scope, input: ProviderUserInputParsed): Promise<number[]> {
  const wanted = [...new Set(input.companyIds)];
  if (!wanted.length) return [];
  if (input.role === 'admin') throw new AppError(400, 'validation', { companyIds: 'invalid' });
  const found = await tx
    .select({ id: clients.id })
    .from(clients)
    .where(and(inArray(clients.id, wanted), assignable(scope)));
  if (found.length !== wanted.length) throw new AppError(400, 'validation', { companyIds: 'invalid' });
  return wanted;
}

/** The user's companies within the caller's Scope become `companyIds` (those it can't see are kept). */
async function setCompanies(tx: Tx, scope: Scope, userId: number, companyIds: number[]) {
  await tx
    .delete(consultantUserCompanies)
    .where(and(eq(consultantUserCompanies.userId, userId), companiesInScope(scope)));
  if (companyIds.length)
    await tx.insert(consultantUserCompanies).values(companyIds.map((clientId) => ({ userId, clientId })));
}

/** A unique violation that slipped past the check (a concurrent write) → 409. */
function mapConflict(err: unknown): never {
  return conflictAs(err, 'userEmailExists');
}

export async function createProviderUser(
  deps: Deps,
  me: Caller,
  input: ProviderUserInputParsed,
): Promise<ProviderUser> {
  const { db } = deps.database;
  let user: ProviderUser;
  try {
    user = await db.transaction(async (tx) => {
      const permissions = permissionsOf(input);
      const companyIds = await companiesOf(tx, me.scope, input);
      if (await emailTaken(tx, input.email, null)) throw new AppError(409, 'userEmailExists');
      const [row] = await tx
        .insert(users)
        .values({
          fullName: input.name,
          email: input.email,
          contactNumber: input.contactNumber,
          status: input.status,
          roleId: PROVIDER_ROLE_IDS[input.role],
          clientId: null,
          permissions,
          languageId: me.user.languageId,
          activated: false,
        })
        .returning({ id: users.id });
      await setCompanies(tx, me.scope, row.id, companyIds);
      const after = await entityOf(tx, me.scope, row.id);
      await logUserChange(tx, me, row.id, 'create', undefined, after);
      return after;
    });
  } catch (err) {
    mapConflict(err);
  }
  // After the commit: a failed mail does not undo the user (forgot-password sends a link again).
  await sendActivationMail(deps, user.id);
  return user;
}

export async function updateProviderUser(
  deps: Deps,
  me: Caller,
  id: number,
  input: ProviderUserInputParsed,
): Promise<ProviderUser> {
  const { db } = deps.database;
  let result: { user: ProviderUser; remail: boolean };
  try {
    result = await db.transaction(async (tx) => {
      const row = await oneUser(tx, id, true);
      const before = (await toEntities(tx, me.scope, [row]))[0];
      const permissions = permissionsOf(input);
      if (
        id === me.user.id &&
        (input.role !== before.role || input.status !== 'active' || !permissions.includes(MANAGE))
      )
        throw new AppError(409, 'ownAccessLocked');
      const companyIds = await companiesOf(tx, me.scope, input);
      if (await emailTaken(tx, input.email, id)) throw new AppError(409, 'userEmailExists');
      await tx
        .update(users)
        .set({
          fullName: input.name,
          email: input.email,
          contactNumber: input.contactNumber,
          status: input.status,
          roleId: PROVIDER_ROLE_IDS[input.role],
          permissions,
          // A new role, permissions, companies or status applies at once: old sessions end
          // (the caller editing their own name or phone keeps their session).
          ...(id === me.user.id ? {} : { tokenVersion: sql`${users.tokenVersion} + 1` }),
        })
        .where(eq(users.id, id));
      await setCompanies(tx, me.scope, id, companyIds);
      const after = await entityOf(tx, me.scope, id);
      await logUserChange(tx, me, id, 'update', before, after);
      const remail = !row.activated && row.email.toLowerCase() !== input.email.toLowerCase();
      return { user: after, remail };
    });
  } catch (err) {
    mapConflict(err);
  }
  if (result.remail) await sendActivationMail(deps, id);
  return result.user;
}

/** Deactivate (sessions revoked, login refused) or activate again; never oneself. */
export async function setProviderUserStatus(
  db: Db,
  me: Caller,
  id: number,
  status: ProviderUserStatus,
): Promise<ProviderUser> {
  return db.transaction(async (tx) => {
    const row = await oneUser(tx, id, true);
    if (id === me.user.id) throw new AppError(409, 'ownAccessLocked');
    const before = (await toEntities(tx, me.scope, [row]))[0];
    await setUserStatus(tx, id, status);
    const after = await entityOf(tx, me.scope, id);
    await logUserChange(tx, me, id, status === 'inactive' ? 'deactivate' : 'activate', before, after);
    return after;
  });
}
