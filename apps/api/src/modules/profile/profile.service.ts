import { asc, eq, sql } from 'drizzle-orm';
import { type AlertDigest, type Profile, type ProfileUpdate } from '@kulu/shared';
import { alerts, clientOperators, clients, files, operators, users } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { fileDataUrl } from '../../lib/files.js';
import { hashPassword, verifyPassword } from '../../lib/passwords.js';
import type { Scope } from '../../lib/scope.js';
import type { AuthUser, Deps } from '../../types.js';

/** The caller's own profile; company users also see their company (the client of their scope). */
export async function getProfile(deps: Deps, me: AuthUser, scope: Scope): Promise<Profile> {
  const { db } = deps.database;
  const [u] = await db.select().from(users).where(eq(users.id, me.id));
  let company: Profile['company'] = null;
  let operatorContracts: Profile['operatorContracts'] = [];
  let logoFileId = u.logoFileId;
  const ownClientId = scope.ownClientId;
  if (ownClientId != null) {
    const [c] = await db.select().from(clients).where(eq(clients.id, ownClientId));
    logoFileId = c.logoFileId;
    company = {
      id: c.id,
      name: c.companyName,
      businessId: c.businessId,
      address: c.address,
      profileStatus: c.profileStatus,
    };
    operatorContracts = await db
      .select({
        operatorId: operators.id,
        operatorName: operators.name,
        salesContactName: clientOperators.salesContactName,
        contractStartDate: clientOperators.contractStartDate,
        contractEndDate: clientOperators.contractEndDate,
        uploadInvoiceReminder: clientOperators.uploadInvoiceReminder,
      })
      .from(clientOperators)
      .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
      .where(eq(clientOperators.clientId, c.id))
      .orderBy(asc(operators.name));
  }
  const logo = await fileDataUrl(db, logoFileId);
  return {
    fullName: u.fullName,
    email: u.email,
    contactNumber: u.contactNumber,
    address: u.address,
    roleID: u.roleId,
    languageID: u.languageId,
    applicationThemeID: u.themeId,
    alertDigest: u.alertDigest,
    logo,
    company,
    operatorContracts,
  };
}

export async function updateProfile(
  deps: Deps,
  me: AuthUser,
  scope: Scope,
  body: ProfileUpdate,
): Promise<Profile> {
  await deps.database.db
    .update(users)
    .set({
      fullName: body.fullName,
      ...(body.contactNumber !== undefined ? { contactNumber: body.contactNumber || null } : {}),
      ...(body.address !== undefined ? { address: body.address || null } : {}),
    })
    .where(eq(users.id, me.id));
  return getProfile(deps, me, scope);
}

/**
 * The user's alert digest setting (decision 0026). Turning it on from "never" starts after the
 * alerts stored now: the first digest lists what is new, not every alert raised while it was off.
 */
export function digestSetting(value: AlertDigest) {
  return {
    alertDigest: value,
    alertDigestAfter: sql<number>`case when ${users.alertDigest} = 'off' and ${value} <> 'off'
      then (select coalesce(max(${alerts.id}), 0) from ${alerts}) else ${users.alertDigestAfter} end`,
  };
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
export const LOGO_MAX_BYTES = 1024 * 1024;
const LOGO_MAX_PIXELS = 2000;

/** A PNG by content (magic and IHDR), bounded in bytes and pixels. */
export function checkPng(data: Buffer): void {
  if (
    data.length < 24 ||
    !data.subarray(0, 8).equals(PNG_MAGIC) ||
    data.toString('ascii', 12, 16) !== 'IHDR'
  ) {
    throw new AppError(400, 'logoPngOnly');
  }
  const width = data.readUInt32BE(16);
  const height = data.readUInt32BE(20);
  if (
    data.length > LOGO_MAX_BYTES ||
    width > LOGO_MAX_PIXELS ||
    height > LOGO_MAX_PIXELS ||
    !width ||
    !height
  ) {
    throw new AppError(400, 'logoTooLarge');
  }
}

/** Company users set their company's logo; provider users their own. Old file replaced in one transaction. */
export async function setLogo(
  deps: Deps,
  me: AuthUser,
  scope: Scope,
  data: Buffer | null,
): Promise<string | null> {
  if (data) checkPng(data);
  const clientId = scope.ownClientId;
  await deps.database.db.transaction(async (tx) => {
    const [owner] =
      clientId != null
        ? await tx.select({ fileId: clients.logoFileId }).from(clients).where(eq(clients.id, clientId))
        : await tx.select({ fileId: users.logoFileId }).from(users).where(eq(users.id, me.id));
    let fileId: number | null = null;
    if (data) {
      const [f] = await tx
        .insert(files)
        .values({
          clientId,
          kind: 'logo',
          name: 'logo.png',
          mime: 'image/png',
          size: data.length,
          data,
        })
        .returning({ id: files.id });
      fileId = f.id;
    }
    if (clientId != null)
      await tx.update(clients).set({ logoFileId: fileId }).where(eq(clients.id, clientId));
    else await tx.update(users).set({ logoFileId: fileId }).where(eq(users.id, me.id));
    if (owner?.fileId) await tx.delete(files).where(eq(files.id, owner.fileId));
  });
  return data ? `data:image/png;base64,${data.toString('base64')}` : null;
}

/** Checks the old password, sets the new one and revokes every other token of the user. */
export async function changePassword(deps: Deps, me: AuthUser, oldPassword: string, newPassword: string) {
  const { db } = deps.database;
  const [u] = await db.select().from(users).where(eq(users.id, me.id));
  if (!(await verifyPassword(u.passwordHash, oldPassword))) throw new AppError(400, 'oldPasswordWrong');
  const [fresh] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword), tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, me.id))
    .returning();
  return fresh;
}
