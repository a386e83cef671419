import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  COMPANY_PERMISSIONS,
  DEFAULT_CLIENT_USER_PERMISSIONS,
  invoiceUserResource,
  ROLE,
  type InvoiceUserInput,
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
import type { Executor, Tx } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { nameOf, qualified, type ResourceDef } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import type { ClientFilters, Scope } from '../../lib/scope.js';
import { sendActivationMail } from '../auth/auth.service.js';
import { emailTaken } from '../../lib/db-values.js';

/**
 * Invoice User Management (issue 11): the subscriptions' users of a client — name, phone number,
 * email, sub-company, cost center, mobile benefit and 5G plan flags — and Allow login, which makes
 * the row's person a client user (limited to the row's sub-company and cost center, with chosen
 * permissions) and mails the activation link. Declared on the generic resource mechanism
 * (`invoiceUsersDef` below, packages/shared `invoiceUserResource`): reads and writes go through
 * the caller's Scope (a client user sees and changes only rows of their sub-companies and cost
 * centers), every change is logged in its transaction; Allow login is its write step and the
 * activation mail follows the commit. Design: docs/decisions/0008-client-masters.md.
 */

export const AREA = 'clientMasters';

/**
 * The client a request works on: the one named (must be in scope, else 404) or the caller's own;
 * provider users must name one (400 `clientId` required).
 */
export async function targetClient(scope: Scope, clientId: number | null | undefined): Promise<number> {
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
export async function listClient(scope: Scope, q: ClientFilters): Promise<number> {
  return targetClient(scope, await scope.ownerOfFilters(q.clientId, q));
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
    if (!(await scope.hasSubCompany(clientId, subCompanyId, tx))) fields.subCompanyId = 'invalid';
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

/**
 * Allow login: a caller may give the client user only permissions a company may have and they
 * hold themselves, and the email must be no other user's (409).
 */
async function checkLogin(tx: Executor, caller: Caller, input: InvoiceUserInput, userId: number | null) {
  if (!input.allowLogin) return;
  const grantable = COMPANY_PERMISSIONS.filter((p) => caller.user.permissions.includes(p));
  if (input.permissions.some((p) => !grantable.includes(p as never)))
    throw new AppError(400, 'validation', { permissions: 'invalid' });
  if (await emailTaken(tx, input.email!, userId)) throw new AppError(409, 'clientUserEmailExists');
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
 * sessions (checked before: `checkLogin`). Answers the user id to mail an activation link to, if any.
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
  const permissions = [...new Set(input.permissions)];
  const email = input.email!;
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

/** A column of the row's client user (null without one): a subquery column. */
const userColumn = (col: PgColumn) =>
  sql`(select ${qualified(col)} from ${users} where ${qualified(users.id)} = ${qualified(invoiceUsers.userId)})`;

/**
 * The resource: one client's rows (named by the query or body, else the caller's own: `owner`)
 * within the caller's Scope. A write checks the placement and the phone number (409
 * `invoiceUserPhoneExists`), then Allow login creates, updates or deactivates the row's client
 * user (409 `clientUserEmailExists` for a taken email) and the row takes its user and the
 * subscription of its number; the activation mail goes after the commit. A delete deactivates the
 * row's user (not deleted: the log keeps who did what).
 */
export const invoiceUsersDef: ResourceDef = {
  meta: invoiceUserResource,
  table: invoiceUsers,
  id: invoiceUsers.id,
  select: {
    id: invoiceUsers.id,
    clientId: invoiceUsers.clientId,
    phoneNumber: invoiceUsers.phoneNumber,
    name: invoiceUsers.name,
    email: invoiceUsers.email,
    subCompanyId: invoiceUsers.subCompanyId,
    subCompanyName: nameOf(subCompanies.name, subCompanies.id, invoiceUsers.subCompanyId),
    costCenterId: invoiceUsers.costCenterId,
    costCenterName: nameOf(costCenters.name, costCenters.id, invoiceUsers.costCenterId),
    mobileBenefit: invoiceUsers.mobileBenefit,
    fiveGPlan: invoiceUsers.fiveGPlan,
    allowLogin: invoiceUsers.allowLogin,
    subscriptionId: invoiceUsers.subscriptionId,
    userId: invoiceUsers.userId,
    loginStatus: sql`case when ${qualified(invoiceUsers.userId)} is null then null when ${userColumn(users.status)} = 'inactive' then 'inactive' when ${userColumn(users.activated)} then 'active' else 'invited' end`,
    permissions: sql`case when ${qualified(invoiceUsers.userId)} is null then '[]'::jsonb else coalesce(${userColumn(users.permissions)}, ${JSON.stringify(DEFAULT_CLIENT_USER_PERMISSIONS)}::jsonb) end`,
    updatedAt: invoiceUsers.updatedAt,
  },
  scopeColumns: {
    clientId: invoiceUsers.clientId,
    subCompanyId: invoiceUsers.subCompanyId,
    costCenterId: invoiceUsers.costCenterId,
  },
  owner: {
    column: invoiceUsers.clientId,
    resolve: (caller, values, from) =>
      from === 'query'
        ? listClient(caller.scope, values as Parameters<typeof listClient>[1])
        : targetClient(caller.scope, values.clientId as number | undefined),
  },
  sortBy: {
    phoneNumber: sql`${invoiceUsers.phoneNumber}`,
    subCompany: sql`lower(${nameOf(subCompanies.name, subCompanies.id, invoiceUsers.subCompanyId)})`,
    costCenter: sql`lower(${nameOf(costCenters.name, costCenters.id, invoiceUsers.costCenterId)})`,
  },
  unique: [{ index: 'invoice_users_phone_uq' }, { index: 'users_email_uq', code: 'clientUserEmailExists' }],
  toValues: (input, _existing, caller) => {
    const v = input as InvoiceUserInput;
    return {
      name: v.name,
      phoneNumber: v.phoneNumber,
      email: v.email,
      subCompanyId: v.subCompanyId,
      costCenterId: v.costCenterId,
      mobileBenefit: v.mobileBenefit,
      fiveGPlan: v.fiveGPlan,
      allowLogin: v.allowLogin,
      updatedAt: caller.now,
    };
  },
  async validate(tx, input, existing, caller, ownerId) {
    const v = input as InvoiceUserInput;
    const clientId = existing ? (existing.clientId as number) : ownerId!;
    await checkPlacement(tx, caller.scope, clientId, v.subCompanyId, v.costCenterId);
    if (await phoneTaken(tx, clientId, v.phoneNumber, existing ? (existing.id as number) : null))
      throw new AppError(409, 'invoiceUserPhoneExists');
    await checkLogin(tx, caller, v, (existing?.userId as number | null) ?? null);
  },
  /** Allow login, then the row's user and subscription; answers whom to mail the link to. */
  async afterSave(tx, { id, input, existing, caller, parentId }) {
    const v = input as InvoiceUserInput;
    const clientId = existing ? (existing.clientId as number) : parentId!;
    const login = await syncLogin(tx, caller, clientId, v, (existing?.userId as number | null) ?? null);
    await tx
      .update(invoiceUsers)
      .set({ userId: login.userId, subscriptionId: await subscriptionOf(tx, clientId, v.phoneNumber) })
      .where(eq(invoiceUsers.id, id));
    return login.mailTo;
  },
  async afterWrite(tx, event) {
    // A deleted row's client user is deactivated and their sessions end.
    const userId = event.type === 'delete' ? (event.before.userId as number | null) : null;
    if (userId != null)
      await tx
        .update(users)
        .set({ status: 'inactive', tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(eq(users.id, userId));
  },
  async afterCommit(deps, event) {
    if (event.saved != null) await sendActivationMail(deps, event.saved as number);
  },
  activityArea: AREA,
  activityEntity: 'invoiceUser',
};
