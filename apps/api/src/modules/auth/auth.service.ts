import { and, asc, eq, gt, isNull, lte, gte, sql } from 'drizzle-orm';
import {
  effectivePermissions,
  isClientRole,
  ROLE,
  type ClientInfo,
  type SignupRequest,
  type TokenResponse,
  message,
} from '@kulu/shared';
import {
  authTokens,
  clientContracts,
  clientOperators,
  clients,
  operators,
  users,
} from '../../db/schema/index.js';
import type { Executor } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { fileDataUrl } from '../../lib/files.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { newLinkToken, sha256 } from '../../lib/secrets.js';
import type { Deps } from '../../types.js';

type UserRow = typeof users.$inferSelect;

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** Operators a user may pick at login: the client's contracted operators, or all for the provider. */
export async function operatorsFor(db: Executor, user: Pick<UserRow, 'clientId' | 'roleId'>) {
  if (user.clientId && isClientRole(user.roleId)) {
    return db
      .select({ id: operators.id, name: operators.name })
      .from(clientOperators)
      .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
      .where(eq(clientOperators.clientId, user.clientId))
      .orderBy(asc(operators.name));
  }
  return db.select({ id: operators.id, name: operators.name }).from(operators).orderBy(asc(operators.name));
}

/** Spec §4: a client's menu is disabled when it is terminated or has no valid contract today. */
export async function isMenuDisabled(db: Executor, clientId: number, today: Date): Promise<boolean> {
  const [client] = await db
    .select({ status: clients.profileStatus })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!client || client.status === 'terminated') return true;
  const day = isoDate(today);
  const [valid] = await db
    .select({ id: clientContracts.id })
    .from(clientContracts)
    .where(
      and(
        eq(clientContracts.clientId, clientId),
        eq(clientContracts.status, 'active'),
        lte(clientContracts.startDate, day),
        gte(clientContracts.endDate, day),
      ),
    )
    .limit(1);
  return !valid;
}

async function logoFor(db: Executor, user: UserRow): Promise<string | null> {
  let fileId = user.logoFileId;
  if (user.clientId && isClientRole(user.roleId)) {
    const [c] = await db
      .select({ logo: clients.logoFileId })
      .from(clients)
      .where(eq(clients.id, user.clientId));
    fileId = c?.logo ?? null;
  }
  return fileDataUrl(db, fileId);
}

/** The session details of spec §3 for a user and the operator their session is scoped to. */
export async function clientInfoFor(
  deps: Deps,
  user: UserRow,
  operatorId: number | null,
): Promise<ClientInfo> {
  const { db } = deps.database;
  const ops = await operatorsFor(db, user);
  const op = ops.find((o) => o.id === operatorId) ?? null;
  let companyName: string | null = null;
  let menuDisabled = false;
  if (user.clientId && isClientRole(user.roleId)) {
    const [c] = await db
      .select({ name: clients.companyName })
      .from(clients)
      .where(eq(clients.id, user.clientId));
    companyName = c?.name ?? null;
    menuDisabled = await isMenuDisabled(db, user.clientId, deps.now());
  }
  return {
    fullName: user.fullName,
    emailID: user.email,
    roleID: user.roleId,
    languageID: user.languageId,
    logo: await logoFor(db, user),
    applicationThemeID: user.themeId,
    basePath: isClientRole(user.roleId) ? '/company' : '/admin',
    acessPermissions: effectivePermissions(user.roleId, user.permissions),
    loggedInOperatorName: op?.name ?? null,
    loggedInOperatorID: op?.id ?? null,
    clientId: user.clientId,
    companyName,
    menuDisabled,
    operators: ops,
  };
}

/** A signed token plus the session details. */
export async function issueSession(
  deps: Deps,
  user: UserRow,
  operatorId?: number | null,
): Promise<TokenResponse> {
  const ops = await operatorsFor(deps.database.db, user);
  let op: number | null = ops[0]?.id ?? null;
  if (operatorId != null) {
    if (!ops.some((o) => o.id === operatorId)) throw new AppError(400, 'unknownOperator');
    op = operatorId;
  }
  const access_token = await deps.tokens.sign({
    sub: user.id,
    role: user.roleId,
    cid: user.clientId,
    op,
    tv: user.tokenVersion,
  });
  const info = await clientInfoFor(deps, user, op);
  return { access_token, token_type: 'bearer', expires_in: deps.tokens.ttlSeconds, ...info };
}

/**
 * Password login. The answer never tells whether the email or the password was wrong; after
 * LOGIN_MAX_FAILURES failures the account is locked for LOGIN_LOCK_MINUTES. Activation and
 * status are told only to someone who knows the password.
 */
export async function login(
  deps: Deps,
  email: string,
  password: string,
  operatorId?: number,
): Promise<TokenResponse> {
  const { db } = deps.database;
  const now = deps.now();
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  if (!user) {
    await verifyPassword(await dummyHash(), password);
    throw new AppError(400, 'invalidCredentials');
  }
  if (user.lockedUntil && user.lockedUntil > now) throw new AppError(423, 'accountLocked');
  if (!(await verifyPassword(user.passwordHash, password))) {
    const failures = user.failedLogins + 1;
    const lock = failures >= deps.config.LOGIN_MAX_FAILURES;
    await db
      .update(users)
      .set({
        failedLogins: lock ? 0 : failures,
        lockedUntil: lock
          ? new Date(now.getTime() + deps.config.LOGIN_LOCK_MINUTES * 60_000)
          : user.lockedUntil,
      })
      .where(eq(users.id, user.id));
    throw new AppError(lock ? 423 : 400, lock ? 'accountLocked' : 'invalidCredentials');
  }
  if (!user.activated) throw new AppError(400, 'notActivated');
  if (user.status !== 'active') throw new AppError(400, 'inactive');
  const [fresh] = await db
    .update(users)
    .set({ failedLogins: 0, lockedUntil: null, lastLoginAt: now })
    .where(eq(users.id, user.id))
    .returning();
  return issueSession(deps, fresh, operatorId);
}

const PG_UNIQUE = '23505';

/**
 * Registration as a company or a consultant: an interested client and its first user, who can
 * log in once the provider has converted and activated them.
 */
export async function signup(deps: Deps, req: SignupRequest): Promise<void> {
  const { db } = deps.database;
  const passwordHash = await hashPassword(req.password);
  try {
    await db.transaction(async (tx) => {
      const conflicts: Array<[boolean, 'companyNameInUse' | 'businessIdInUse' | 'emailInUse']> = [
        [
          (
            await tx
              .select({ id: clients.id })
              .from(clients)
              .where(sql`lower(${clients.companyName}) = ${req.companyName.toLowerCase()}`)
          ).length > 0,
          'companyNameInUse',
        ],
        [
          (await tx.select({ id: clients.id }).from(clients).where(eq(clients.businessId, req.businessId)))
            .length > 0,
          'businessIdInUse',
        ],
        [
          (
            await tx
              .select({ id: users.id })
              .from(users)
              .where(sql`lower(${users.email}) = ${req.email}`)
          ).length > 0,
          'emailInUse',
        ],
      ];
      const hit = conflicts.find(([c]) => c);
      if (hit) throw new AppError(409, hit[1]);
      const [client] = await tx
        .insert(clients)
        .values({
          type: req.type,
          companyName: req.companyName,
          businessId: req.businessId,
          address: req.address || null,
          contactNumber: req.contactNumber,
          email: req.email,
        })
        .returning({ id: clients.id });
      await tx.insert(users).values({
        email: req.email,
        passwordHash,
        fullName: req.fullName,
        roleId: req.type === 'company' ? ROLE.companyAdmin : ROLE.consultant,
        clientId: client.id,
        contactNumber: req.contactNumber,
        address: req.address || null,
        languageId: req.languageID,
        activated: false,
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code =
      (e as { code?: string; cause?: { code?: string } }).code ??
      (e as { cause?: { code?: string } }).cause?.code;
    if (code === PG_UNIQUE) throw new AppError(409, 'emailInUse');
    throw e;
  }
}

/** Creates a single-use link token of the given kind; returns the token to mail. */
export async function createLinkToken(
  deps: Deps,
  db: Executor,
  userId: number,
  kind: 'reset' | 'activation',
): Promise<string> {
  const { token, hash } = newLinkToken();
  const hours = kind === 'reset' ? deps.config.RESET_TOKEN_TTL_HOURS : deps.config.ACTIVATION_TOKEN_TTL_HOURS;
  await db.insert(authTokens).values({
    userId,
    kind,
    tokenHash: hash,
    expiresAt: new Date(deps.now().getTime() + hours * 3_600_000),
  });
  return token;
}

const linkBase = (deps: Deps, origin: string) => (deps.config.PUBLIC_URL ?? origin).replace(/\/$/, '');

export async function forgotPassword(deps: Deps, email: string, origin: string): Promise<void> {
  const { db } = deps.database;
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  if (!user) throw new AppError(404, 'emailNotFound');
  const token = await createLinkToken(deps, db, user.id, 'reset');
  const lang = user.languageId === 2 ? 'fi' : 'en';
  const link = `${linkBase(deps, origin)}/#/reset-password?token=${token}`;
  const hours = deps.config.RESET_TOKEN_TTL_HOURS;
  await deps.mailer.send({
    to: user.email,
    subject: lang === 'fi' ? 'Kulu: salasanan palautus' : 'Kulu: reset your password',
    text:
      lang === 'fi'
        ? `Hei ${user.fullName},\n\nvaihda salasanasi tästä linkistä (voimassa ${hours} tuntia, käytettävissä kerran):\n${link}\n\nJos et pyytänyt salasanan palautusta, voit jättää tämän viestin huomiotta.`
        : `Hello ${user.fullName},\n\nreset your password with this link (valid for ${hours} hours, usable once):\n${link}\n\nIf you did not ask for a reset, you can ignore this mail.`,
  });
}

export async function sendActivationMail(deps: Deps, userId: number, origin: string): Promise<void> {
  const { db } = deps.database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(404, 'notFound');
  const token = await createLinkToken(deps, db, user.id, 'activation');
  const link = `${linkBase(deps, origin)}/#/activate?token=${token}`;
  const fi = user.languageId === 2;
  await deps.mailer.send({
    to: user.email,
    subject: fi ? 'Kulu: aktivoi käyttäjätunnuksesi' : 'Kulu: activate your account',
    text: fi
      ? `Hei ${user.fullName},\n\nsinulle on luotu Kulu-tunnus. Aseta salasanasi tästä linkistä:\n${link}`
      : `Hello ${user.fullName},\n\nan account has been created for you in Kulu. Set your password with this link:\n${link}`,
  });
}

/**
 * Uses a reset or activation token once: sets the password, revokes the user's old access
 * tokens and clears any lock. An unknown, used or expired token gets the expired-link error.
 */
export async function consumeLinkToken(
  deps: Deps,
  kind: 'reset' | 'activation',
  token: string,
  password: string,
): Promise<void> {
  const { db } = deps.database;
  const passwordHash = await hashPassword(password);
  const expired = new AppError(400, kind === 'reset' ? 'resetLinkExpired' : 'activationLinkExpired');
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(authTokens)
      .set({ usedAt: deps.now() })
      .where(
        and(
          eq(authTokens.tokenHash, sha256(token)),
          eq(authTokens.kind, kind),
          isNull(authTokens.usedAt),
          gt(authTokens.expiresAt, deps.now()),
        ),
      )
      .returning({ userId: authTokens.userId });
    if (!row) throw expired;
    await tx
      .update(users)
      .set({
        passwordHash,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        failedLogins: 0,
        lockedUntil: null,
        ...(kind === 'activation' ? { activated: true } : {}),
      })
      .where(eq(users.id, row.userId));
  });
}

export const resetMessage = (lang: 'en' | 'fi') => message('passwordReset', lang);
