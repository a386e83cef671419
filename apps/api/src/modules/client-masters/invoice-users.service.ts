import { and, asc, desc, eq, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  COMPANY_PERMISSIONS,
  DEFAULT_CLIENT_USER_PERMISSIONS,
  ROLE,
  type InvoiceUser,
  type InvoiceUserInput,
  type InvoiceUserList,
  type InvoiceUserListQuery,
} from '@kulu/shared';
import {
  costCenters,
  invoiceUsers,
  subCompanies,
  subscriptions,
  userCostCenters,
  userSubCompanies,
  users,
} from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern, type Caller } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { sendActivationMail } from '../auth/auth.service.js';
import type { Deps } from '../../types.js';
import { conflictAs, emailTaken } from '../../lib/db-values.js';

/**
 * Invoice User Management (issue 11): the subscriptions' users of a client — name, phone number,
 * email, sub-company, cost center, mobile benefit and 5G plan flags — and Allow login, which makes
 * the row's person a client user (limited to the row's sub-company and cost center, with chosen
 * permissions) and mails the activation link. Reads and writes go through the caller's Scope: a
 * client user sees and changes only rows of their sub-companies and cost centers. Every change is
 * logged in its transaction. Design: docs/decisions/0008-client-masters.md.
 */

export const AREA = 'clientMasters';

/**
 * The client a request works on: the one named (must be in scope, else 404) or the caller's own;
 * provider users must name one (400 `clientId` required).
 */
export async function targetClient(scope: Scope, clientId: number | undefined): Promise<number> {
  if (clientId != null) {
    await scope.assertClient(clientId);
    return clientId;
  }
  const own = scope.ownClientId;
  if (own == null) throw new AppError(400, 'validation', { clientId: 'required' });
  return own;
}

/**
 * The client of a list: named, or the owner of the sub-company / cost center filtered on (each
 * must be in scope and of the same client, else 404), or the caller's own.
 */
export async function listClient(
  scope: Scope,
  q: { clientId?: number; subCompanyId?: number; costCenterId?: number },
): Promise<number> {
  const [sub, center] = await Promise.all([
    q.subCompanyId != null ? scope.assertSubCompany(q.subCompanyId) : undefined,
    q.costCenterId != null ? scope.assertCostCenter(q.costCenterId) : undefined,
  ]);
  let clientId = q.clientId;
  for (const owner of [sub?.clientId, center?.clientId]) {
    if (owner == null) continue;
    if (clientId != null && owner !== clientId) throw notFound();
    clientId = owner;
  }
  return targetClient(scope, clientId);
}

const scopeOf = (scope: Scope) =>
  scope.where({
    clientId: invoiceUsers.clientId,
    subCompanyId: invoiceUsers.subCompanyId,
    costCenterId: invoiceUsers.costCenterId,
  });

const columns = {
  id: invoiceUsers.id,
  clientId: invoiceUsers.clientId,
  phoneNumber: invoiceUsers.phoneNumber,
  name: invoiceUsers.name,
  email: invoiceUsers.email,
  subCompanyId: invoiceUsers.subCompanyId,
  subCompanyName: subCompanies.name,
  costCenterId: invoiceUsers.costCenterId,
  costCenterName: costCenters.name,
  mobileBenefit: invoiceUsers.mobileBenefit,
  fiveGPlan: invoiceUsers.fiveGPlan,
  allowLogin: invoiceUsers.allowLogin,
  subscriptionId: invoiceUsers.subscriptionId,
  userId: invoiceUsers.userId,
  userStatus: users.status,
  userActivated: users.activated,
  permissions: users.permissions,
  updatedAt: invoiceUsers.updatedAt,
};

const SORT: Record<string, SQL> = {
  name: sql`lower(${invoiceUsers.name})`,
  phoneNumber: sql`${invoiceUsers.phoneNumber}`,
  email: sql`lower(${invoiceUsers.email})`,
  subCompany: sql`lower(${subCompanies.name})`,
  costCenter: sql`lower(${costCenters.name})`,
};

function baseQuery(db: Executor) {
  return db
    .select(columns)
    .from(invoiceUsers)
    .leftJoin(subCompanies, eq(subCompanies.id, invoiceUsers.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, invoiceUsers.costCenterId))
    .leftJoin(users, eq(users.id, invoiceUsers.userId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toEntity(r: Selected): InvoiceUser {
  const { userStatus, userActivated, permissions, updatedAt, ...rest } = r;
  return {
    ...rest,
    loginStatus:
      r.userId == null ? null : userStatus === 'inactive' ? 'inactive' : userActivated ? 'active' : 'invited',
    permissions: r.userId == null ? [] : (permissions ?? [...DEFAULT_CLIENT_USER_PERMISSIONS]),
    updatedAt: new Date(updatedAt).toISOString(),
  };
}

/** The list: one client, searched, filtered by sub-company / cost center, sorted and paged. */
export async function listInvoiceUsers(
  db: Db,
  scope: Scope,
  q: InvoiceUserListQuery,
): Promise<InvoiceUserList> {
  const clientId = await listClient(scope, q);
  const pattern = q.q ? containsPattern(q.q) : undefined;
  const where = and(
    eq(invoiceUsers.clientId, clientId),
    scopeOf(scope),
    q.subCompanyId != null ? eq(invoiceUsers.subCompanyId, q.subCompanyId) : undefined,
    q.costCenterId != null ? eq(invoiceUsers.costCenterId, q.costCenterId) : undefined,
    pattern
      ? or(
          sql`${invoiceUsers.name} ilike ${pattern} escape '\\'`,
          sql`${invoiceUsers.phoneNumber} ilike ${pattern} escape '\\'`,
          sql`${invoiceUsers.email} ilike ${pattern} escape '\\'`,
        )
      : undefined,
  );
  const dir = q.order === 'desc' ? desc : asc;
  const [rows, [{ n }]] = await Promise.all([
    baseQuery(db)
      .where(where)
      .orderBy(dir(SORT[q.sort ?? 'name']), dir(invoiceUsers.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(invoiceUsers)
      .where(where),
  ]);
  return { items: rows.map(toEntity), total: Number(n), page: q.page, pageSize: q.pageSize };
}

/** One row in the caller's scope (404 otherwise). */
export async function getInvoiceUser(db: Executor, scope: Scope | null, id: number): Promise<InvoiceUser> {
  const [row] = await baseQuery(db).where(and(eq(invoiceUsers.id, id), scope ? scopeOf(scope) : undefined));
  if (!row) throw notFound();
  return toEntity(row);
}

/**
 * The sub-company and cost center of a row: of the row's client, inside the caller's limits, the
 * cost center of the chosen sub-company (when it has one). A client user limited to sub-companies
 * (or cost centers) must choose one, or the row would leave their own scope. 400 `invalid` /
 * `required` per field.
 */
export async function checkPlacement(
  tx: Executor,
  scope: Scope,
  clientId: number,
  subCompanyId: number | null,
  costCenterId: number | null,
): Promise<void> {
  const fields: Record<string, string> = {};
  if (subCompanyId != null) {
    const [s] = await tx
      .select({ id: subCompanies.id })
      .from(subCompanies)
      .where(
        and(
          eq(subCompanies.id, subCompanyId),
          eq(subCompanies.clientId, clientId),
          scope.where({ clientId: subCompanies.clientId, subCompanyId: subCompanies.id }),
        ),
      );
    if (!s) fields.subCompanyId = 'invalid';
  } else if (scope.subCompanyIds) fields.subCompanyId = 'required';
  if (costCenterId != null) {
    const [c] = await tx
      .select({ id: costCenters.id, subCompanyId: costCenters.subCompanyId })
      .from(costCenters)
      .where(
        and(
          eq(costCenters.id, costCenterId),
          eq(costCenters.clientId, clientId),
          scope.where({ clientId: costCenters.clientId, costCenterId: costCenters.id }),
        ),
      );
    if (!c || (c.subCompanyId != null && subCompanyId != null && c.subCompanyId !== subCompanyId))
      fields.costCenterId = 'invalid';
  } else if (scope.costCenterIds) fields.costCenterId = 'required';
  if (Object.keys(fields).length) throw new AppError(400, 'validation', fields);
}

/** A caller may give a client user only permissions a company may have and they hold themselves. */
function checkPermissions(caller: Caller, wanted: readonly string[]): string[] {
  const grantable = COMPANY_PERMISSIONS.filter((p) => caller.user.permissions.includes(p));
  if (wanted.some((p) => !grantable.includes(p as never)))
    throw new AppError(400, 'validation', { permissions: 'invalid' });
  return [...new Set(wanted)];
}

/** The subscription of the same number of the client, once an invoice has shown it. */
export async function subscriptionOf(tx: Executor, clientId: number, phoneNumber: string) {
  const [s] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.clientId, clientId), eq(subscriptions.phoneNumber, phoneNumber)));
  return s?.id ?? null;
}

async function phoneTaken(tx: Executor, clientId: number, phone: string, selfId: number | null) {
  const [hit] = await tx
    .select({ id: invoiceUsers.id })
    .from(invoiceUsers)
    .where(
      and(
        eq(invoiceUsers.clientId, clientId),
        eq(invoiceUsers.phoneNumber, phone),
        selfId != null ? ne(invoiceUsers.id, selfId) : undefined,
      ),
    )
    .limit(1);
  return !!hit;
}

/** The client user's limits: the row's sub-company and cost center (none: the whole client). */
async function setUserLimits(tx: Tx, userId: number, input: InvoiceUserInput) {
  await tx.delete(userSubCompanies).where(eq(userSubCompanies.userId, userId));
  await tx.delete(userCostCenters).where(eq(userCostCenters.userId, userId));
  if (input.subCompanyId != null)
    await tx.insert(userSubCompanies).values({ userId, subCompanyId: input.subCompanyId });
  if (input.costCenterId != null)
    await tx.insert(userCostCenters).values({ userId, costCenterId: input.costCenterId });
}

/**
 * Allow login on a row: creates its client user (not activated: the activation mail lets them set
 * a password) or updates the one it has; turning it off deactivates that user and revokes their
 * sessions. Answers the user id to mail an activation link to, if any.
 */
async function syncLogin(
  tx: Tx,
  caller: Caller,
  clientId: number,
  input: InvoiceUserInput,
  existingUserId: number | null,
): Promise<{ userId: number | null; mailTo: number | null }> {
  if (!input.allowLogin) {
    if (existingUserId != null) {
      await tx
        .update(users)
        .set({ status: 'inactive', tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, existingUserId));
    }
    return { userId: existingUserId, mailTo: null };
  }
  const permissions = checkPermissions(caller, input.permissions);
  const email = input.email!;
  if (await emailTaken(tx, email, existingUserId)) throw new AppError(409, 'clientUserEmailExists');
  if (existingUserId != null) {
    const [before] = await tx
      .select({ status: users.status, activated: users.activated, email: users.email })
      .from(users)
      .where(eq(users.id, existingUserId));
    await tx
      .update(users)
      .set({
        fullName: input.name,
        email,
        permissions,
        status: 'active',
        // New limits or permissions apply at once: old sessions end.
        tokenVersion: sql`${users.tokenVersion} + 1`,
      })
      .where(eq(users.id, existingUserId));
    await setUserLimits(tx, existingUserId, input);
    const remail = before && !before.activated && before.email.toLowerCase() !== email.toLowerCase();
    return { userId: existingUserId, mailTo: remail ? existingUserId : null };
  }
  const [u] = await tx
    .insert(users)
    .values({
      email,
      fullName: input.name,
      roleId: ROLE.clientUser,
      clientId,
      permissions,
      languageId: caller.user.languageId,
      activated: false,
    })
    .returning({ id: users.id });
  await setUserLimits(tx, u.id, input);
  return { userId: u.id, mailTo: u.id };
}

/** A unique violation that slipped past the checks (a concurrent write) → the same 409 answers. */
export function mapConflict(err: unknown): never {
  return conflictAs(err, 'invoiceUserPhoneExists', { users_email_uq: 'clientUserEmailExists' });
}

const rowValues = (input: InvoiceUserInput) => ({
  name: input.name,
  phoneNumber: input.phoneNumber,
  email: input.email,
  subCompanyId: input.subCompanyId,
  costCenterId: input.costCenterId,
  mobileBenefit: input.mobileBenefit,
  fiveGPlan: input.fiveGPlan,
  allowLogin: input.allowLogin,
});

export async function createInvoiceUser(
  deps: Deps,
  caller: Caller,
  input: InvoiceUserInput,
): Promise<InvoiceUser> {
  const { db } = deps.database;
  const clientId = await targetClient(caller.scope, input.clientId);
  let result: { entity: InvoiceUser; mailTo: number | null };
  try {
    result = await db.transaction(async (tx) => {
      await checkPlacement(tx, caller.scope, clientId, input.subCompanyId, input.costCenterId);
      if (await phoneTaken(tx, clientId, input.phoneNumber, null))
        throw new AppError(409, 'invoiceUserPhoneExists');
      const login = await syncLogin(tx, caller, clientId, input, null);
      const [row] = await tx
        .insert(invoiceUsers)
        .values({
          ...rowValues(input),
          clientId,
          userId: login.userId,
          subscriptionId: await subscriptionOf(tx, clientId, input.phoneNumber),
          updatedAt: deps.now(),
        })
        .returning({ id: invoiceUsers.id });
      const entity = await getInvoiceUser(tx, null, row.id);
      await logActivity(tx, {
        userId: caller.user.id,
        clientId,
        area: AREA,
        action: 'create',
        entity: 'invoiceUser',
        entityId: row.id,
        before: null,
        after: entity,
      });
      return { entity, mailTo: login.mailTo };
    });
  } catch (err) {
    mapConflict(err);
  }
  if (result.mailTo != null) await sendActivationMail(deps, result.mailTo);
  return result.entity;
}

export async function updateInvoiceUser(
  deps: Deps,
  caller: Caller,
  id: number,
  input: InvoiceUserInput,
): Promise<InvoiceUser> {
  const { db } = deps.database;
  let result: { entity: InvoiceUser; mailTo: number | null };
  try {
    result = await db.transaction(async (tx) => {
      const before = await getInvoiceUser(tx, caller.scope, id);
      const { clientId } = before;
      await checkPlacement(tx, caller.scope, clientId, input.subCompanyId, input.costCenterId);
      if (await phoneTaken(tx, clientId, input.phoneNumber, id))
        throw new AppError(409, 'invoiceUserPhoneExists');
      const login = await syncLogin(tx, caller, clientId, input, before.userId);
      await tx
        .update(invoiceUsers)
        .set({
          ...rowValues(input),
          userId: login.userId,
          subscriptionId: await subscriptionOf(tx, clientId, input.phoneNumber),
          updatedAt: deps.now(),
        })
        .where(eq(invoiceUsers.id, id));
      const after = await getInvoiceUser(tx, null, id);
      await logActivity(tx, {
        userId: caller.user.id,
        clientId,
        area: AREA,
        action: 'update',
        entity: 'invoiceUser',
        entityId: id,
        before,
        after,
      });
      return { entity: after, mailTo: login.mailTo };
    });
  } catch (err) {
    mapConflict(err);
  }
  if (result.mailTo != null) await sendActivationMail(deps, result.mailTo);
  return result.entity;
}

/** Deletes the row; its client user (if any) is deactivated, not deleted (the log keeps who did what). */
export async function deleteInvoiceUser(deps: Deps, caller: Caller, id: number): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const before = await getInvoiceUser(tx, caller.scope, id);
    await tx.delete(invoiceUsers).where(eq(invoiceUsers.id, id));
    if (before.userId != null) {
      await tx
        .update(users)
        .set({ status: 'inactive', tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, before.userId));
    }
    await logActivity(tx, {
      userId: caller.user.id,
      clientId: before.clientId,
      area: AREA,
      action: 'delete',
      entity: 'invoiceUser',
      entityId: id,
      before,
      after: null,
    });
  });
}

/** Rows of the client by phone number (the import's upsert key), with their placement. */
export async function existingByPhone(tx: Executor, clientId: number, phones: string[]) {
  if (!phones.length)
    return new Map<string, { id: number; subCompanyId: number | null; costCenterId: number | null }>();
  const rows = await tx
    .select({
      id: invoiceUsers.id,
      phoneNumber: invoiceUsers.phoneNumber,
      subCompanyId: invoiceUsers.subCompanyId,
      costCenterId: invoiceUsers.costCenterId,
    })
    .from(invoiceUsers)
    .where(and(eq(invoiceUsers.clientId, clientId), inArray(invoiceUsers.phoneNumber, phones)));
  return new Map(rows.map((r) => [r.phoneNumber, r]));
}
