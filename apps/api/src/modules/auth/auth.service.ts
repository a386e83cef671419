import { and, asc, eq, gt, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import {
  effectivePermissions,
  helsinkiDay,
  isClientRole,
  ROLE,
  type ClientInfo,
  type SignupRequest,
  type TokenResponse,
  message,
} from '@kulu/shared';
import { randomBytes } from 'node:crypto';
import {
  authTokens,
  clientOperators,
  clients,
  operators,
  revokedSessions,
  users,
} from '../../db/schema/index.js';
import type { Database, Db, Executor } from '../../db/client.js';
import { ClockedCache, type ChangeClock } from '../../db/access-changes.js';
import { oncePer, preparedPerDb } from '../../db/prepared.js';
import { AppError } from '../../lib/errors.js';
import { fileDataUrl } from '../../lib/files.js';
import { isClientLockedOut, lockedOutSql } from '../../lib/contract-access.js';
import { dummyHash, hashPassword, verifyPassword } from '../../lib/passwords.js';
import { newLinkToken, sha256 } from '../../lib/secrets.js';
import { mailTemplates } from '../../lib/mail-templates/index.js';
import { MAIL_RECIPIENT } from '../../lib/mail-recipients.js';
import type { Mail } from '../../lib/mailer.js';
import { QUEUE } from '../../lib/queue.js';
import { countEvent, RATE_KEY } from '../../lib/rate-counters.js';
import type { TokenClaims } from '../../lib/tokens.js';
import type { Deps } from '../../types.js';

type UserRow = typeof users.$inferSelect;

/** The user signed in, signing up or resetting with this address (addresses are unique case-insensitively). */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return user;
}

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
export const isMenuDisabled = isClientLockedOut;

/**
 * A client user's company for the session details: its name, logo, whether its menu is disabled and
 * its operators (as operatorsFor lists them), in one prepared query: the session details are read on
 * every page load (issue 13).
 */
const sessionCompany = preparedPerDb((db: Db) => {
  const clientId = sql.placeholder('clientId');
  return db
    .select({
      name: clients.companyName,
      logo: clients.logoFileId,
      menuDisabled: lockedOutSql(db, clientId, sql.placeholder('day')),
      operators: sql<{ id: number; name: string }[]>`coalesce((${db
        .select({
          list: sql`json_agg(json_build_object('id', ${operators.id}, 'name', ${operators.name}) order by ${operators.name})`,
        })
        .from(clientOperators)
        .innerJoin(operators, eq(operators.id, clientOperators.operatorId))
        .where(eq(clientOperators.clientId, clients.id))}), '[]'::json)`,
    })
    .from(clients)
    .where(eq(clients.id, clientId))
    .prepare('kulu_session_company');
});

type SessionCompany = Awaited<ReturnType<ReturnType<typeof sessionCompany>['execute']>>[number] | undefined;

/**
 * The session company, kept per database like the access check's callers (plugins/access.ts) until
 * something it reads changes (its row, contracts, operators: migration 0013's notifications and
 * this process's own writes), keyed by company and day (the lock-out depends on the day).
 */
const keptCompanies = oncePer((changes: ChangeClock) => new ClockedCache<SessionCompany>(changes));

async function keptCompany(database: Database, clientId: number, day: string): Promise<SessionCompany> {
  return keptCompanies(database.changes).get(`${clientId} ${day}`, async () => {
    const [company] = await sessionCompany(database.db).execute({ clientId, day });
    return company;
  });
}

/** The session details of spec §3 for a user and the operator their session is scoped to. */
export async function clientInfoFor(
  deps: Deps,
  user: Pick<
    UserRow,
    'fullName' | 'email' | 'roleId' | 'languageId' | 'logoFileId' | 'themeId' | 'permissions' | 'clientId'
  >,
  operatorId: number | null,
): Promise<ClientInfo> {
  const { db } = deps.database;
  // A company's users show their company; a consultant firm's users (consultants with a client)
  // only its lock-out, which applies to every client (plugins/access.ts).
  const ofClient = user.clientId != null && isClientRole(user.roleId);
  const client =
    user.clientId != null
      ? await keptCompany(deps.database, user.clientId, helsinkiDay(deps.now()))
      : undefined;
  const company = ofClient ? client : undefined;
  const ops = ofClient ? (company?.operators ?? []) : await operatorsFor(db, user);
  const op = ops.find((o) => o.id === operatorId) ?? null;
  return {
    fullName: user.fullName,
    emailID: user.email,
    roleID: user.roleId,
    languageID: user.languageId,
    logo: await fileDataUrl(db, ofClient ? (company?.logo ?? null) : user.logoFileId),
    applicationThemeID: user.themeId,
    basePath: isClientRole(user.roleId) ? '/company' : '/admin',
    acessPermissions: effectivePermissions(user.roleId, user.permissions),
    loggedInOperatorName: op?.name ?? null,
    loggedInOperatorID: op?.id ?? null,
    clientId: user.clientId,
    companyName: company?.name ?? null,
    // An unknown client counts as locked out, as in the access check.
    menuDisabled: user.clientId != null ? (client?.menuDisabled ?? true) : false,
    operators: ops,
  };
}

/**
 * A signed token plus the session details. The token carries the operator the session's client data
 * is limited to (the request's Scope reads it, docs/decisions/0018): `operatorId` when given (one of
 * the user's operators, else 400), null for all operators, and when undefined (a sign-in without a
 * choice) the only operator of a user who has one, else all.
 */
export async function issueSession(
  deps: Deps,
  user: UserRow,
  operatorId?: number | null,
): Promise<TokenResponse> {
  const ops = await operatorsFor(deps.database.db, user);
  let op: number | null = operatorId === undefined && ops.length === 1 ? ops[0]!.id : null;
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
    // This sign-in's name, which "Log out" revokes (logout).
    sid: randomBytes(16).toString('base64url'),
  });
  const info = await clientInfoFor(deps, user, op);
  return { access_token, token_type: 'bearer', expires_in: deps.tokens.ttlSeconds, ...info };
}

/** The least time a refused login takes to answer (well above what either path costs itself). */
export const LOGIN_REFUSAL_FLOOR_MS = 250;

/**
 * Password login. The answer never tells whether the email or the password was wrong, nor whether
 * the account is locked: unknown, locked and wrong-password answers are the same 400, and each runs
 * one argon2 verification (against a dummy hash when the account's own may not be checked), and
 * answers no sooner than LOGIN_REFUSAL_FLOOR_MS after the call began, whichever path it took.
 *
 * Failures are counted atomically: before verifying, one `UPDATE … RETURNING` counts the attempt
 * as a failure while the account is unlocked; the attempt that reaches LOGIN_MAX_FAILURES locks the
 * account for LOGIN_LOCK_MINUTES in the same statement. So however many calls arrive at once, at
 * most LOGIN_MAX_FAILURES of them check the real hash. A success clears the counter and the lock.
 * Activation and status are told only to someone who knows the password.
 */
export async function login(
  deps: Deps,
  email: string,
  password: string,
  operatorId?: number,
): Promise<TokenResponse> {
  const started = performance.now();
  const { db } = deps.database;
  const now = deps.now();
  const max = deps.config.LOGIN_MAX_FAILURES;
  // A refusal answers no sooner than a fixed floor after the call began, so its time cannot tell a
  // known email (a counter update, its own hash) from an unknown one (the dummy hash only).
  const refused = async () => {
    // A timer may fire up to a millisecond early by performance.now(); wait again until the floor.
    for (let wait = LOGIN_REFUSAL_FLOOR_MS; wait > 0;) {
      wait = LOGIN_REFUSAL_FLOOR_MS - (performance.now() - started);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
    }
    return new AppError(400, 'invalidCredentials');
  };
  const user = await findUserByEmail(db, email);
  // The attempt that makes the last allowed failure locks at once; a success unlocks again.
  const last = sql`${users.failedLogins} + 1 >= ${max}`;
  const lockUntil = new Date(now.getTime() + deps.config.LOGIN_LOCK_MINUTES * 60_000).toISOString();
  const [attempt] = user
    ? await db
        .update(users)
        .set({
          failedLogins: sql`case when ${last} then 0 else ${users.failedLogins} + 1 end`,
          lockedUntil: sql`case when ${last} then ${lockUntil}::timestamptz else ${users.lockedUntil} end`,
        })
        .where(
          and(
            eq(users.id, user.id),
            lt(users.failedLogins, max),
            or(isNull(users.lockedUntil), lte(users.lockedUntil, now)),
          ),
        )
        .returning()
    : [];
  if (!attempt) {
    await verifyPassword(await dummyHash(), password);
    throw await refused();
  }
  if (!(await verifyPassword(attempt.passwordHash, password))) throw await refused();
  await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, attempt.id));
  if (!attempt.activated) throw new AppError(400, 'notActivated');
  if (attempt.status !== 'active') throw new AppError(400, 'inactive');
  const [fresh] = await db
    .update(users)
    .set({ failedLogins: 0, lastLoginAt: now })
    .where(eq(users.id, attempt.id))
    .returning();
  return issueSession(deps, fresh, operatorId);
}

const PG_UNIQUE = '23505';

/**
 * Registration as a company or a consultant: an interested client and its first user, who can
 * log in once the provider has converted and activated them.
 *
 * Sign-ups are limited per client address (`ip`) and on the whole service per hour (issue 37, item
 * 5: 748 sign-ups in 15 s), counted before the password is hashed: a refused one costs a counter
 * update, not an argon2 hash. Past either limit the answer is 429, whatever the address.
 *
 * A taken company name or business id is refused (409): they are public facts, not accounts. A
 * taken email is not told: the caller gets the same success as a new registration, and the
 * address's owner gets a mail saying someone tried to sign up with it.
 */
export async function signup(deps: Deps, req: SignupRequest, ip: string): Promise<void> {
  const { db } = deps.database;
  const { config } = deps;
  const tooMany = new AppError(429, 'tooManySignups');
  if (!(await countEvent(db, RATE_KEY.signupFrom(ip), config.SIGNUP_PER_IP_PER_HOUR, deps.now())))
    throw tooMany;
  if (!(await countEvent(db, RATE_KEY.signups, config.SIGNUP_PER_HOUR, deps.now()))) throw tooMany;
  const passwordHash = await hashPassword(req.password);
  const email = req.email.trim().toLowerCase();
  let existingOwner: number | null = null;
  try {
    await db.transaction(async (tx) => {
      const nameTaken = await tx
        .select({ id: clients.id })
        .from(clients)
        .where(sql`lower(${clients.companyName}) = ${req.companyName.toLowerCase()}`);
      if (nameTaken.length) throw new AppError(409, 'companyNameInUse');
      const idTaken = await tx
        .select({ id: clients.id })
        .from(clients)
        .where(eq(clients.businessId, req.businessId));
      if (idTaken.length) throw new AppError(409, 'businessIdInUse');
      const owner = await findUserByEmail(tx, email);
      if (owner) {
        existingOwner = owner.id;
        return;
      }
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
    // A registration of the same address at the same moment: answered like any taken address.
    if (code !== PG_UNIQUE) throw e;
    const owner = await findUserByEmail(db, email);
    if (!owner) throw e;
    existingOwner = owner.id;
  }
  if (existingOwner !== null) await mailSignupAttempt(deps, existingOwner);
}

/**
 * "Someone tried to sign up with your address", queued (so the sign-up answer takes the same time
 * either way) to the owner of the address; not sent past the address's MAIL_PER_RECIPIENT_PER_HOUR
 * (the sign-up's answer stays the same, so that it tells nothing of the address).
 */
async function mailSignupAttempt(deps: Deps, userId: number): Promise<void> {
  const { db } = deps.database;
  const [owner] = await db.select(MAIL_RECIPIENT).from(users).where(eq(users.id, userId));
  if (!owner) return;
  if (!(await mayMailStranger(deps, owner.email))) return;
  const content = mailTemplates(owner.languageId).signupAttempt({
    name: owner.fullName,
    resetLink: `${linkBase(deps)}/#/forgot-password`,
  });
  await deps.jobs.send(QUEUE.sendMail, { to: owner.email, ...content } satisfies Mail);
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

/** The base of links in mails: PUBLIC_URL only, never the request's Host or X-Forwarded-* headers. */
const linkBase = (deps: Deps) => deps.config.PUBLIC_URL.replace(/\/+$/, '');

/**
 * Counts a mail that anyone may have sent to `email` (a reset link, a sign-up notice) and says
 * whether it is within MAIL_PER_RECIPIENT_PER_HOUR (issue 37, item 5: 4,900 reset mails reached one
 * person in 20 s). In the database, so the limit holds across API instances.
 */
const mayMailStranger = (deps: Deps, email: string) =>
  countEvent(deps.database.db, RATE_KEY.mailTo(email), deps.config.MAIL_PER_RECIPIENT_PER_HOUR, deps.now());

/** A reset link by mail; past the address's hourly mails, 429 and no link (the newest one stays open). */
export async function forgotPassword(deps: Deps, email: string): Promise<void> {
  const { db } = deps.database;
  const user = await findUserByEmail(db, email);
  if (!user) throw new AppError(404, 'emailNotFound');
  if (!(await mayMailStranger(deps, user.email))) throw new AppError(429, 'tooManyResetMails');
  const token = await createLinkToken(deps, db, user.id, 'reset');
  const link = `${linkBase(deps)}/#/reset-password?token=${token}`;
  const hours = deps.config.RESET_TOKEN_TTL_HOURS;
  await deps.mailer.send({
    to: user.email,
    ...mailTemplates(user.languageId).passwordReset({ name: user.fullName, link, hours }),
  });
}

export async function sendActivationMail(deps: Deps, userId: number): Promise<void> {
  const { db } = deps.database;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(404, 'notFound');
  const token = await createLinkToken(deps, db, user.id, 'activation');
  const link = `${linkBase(deps)}/#/activate?token=${token}`;
  await deps.mailer.send({
    to: user.email,
    ...mailTemplates(user.languageId).activation({ name: user.fullName, link }),
  });
}

/** The condition of an open (unused, unexpired) link of `kind` whose token has SHA-256 `hash`. */
const openLink = (deps: Deps, kind: 'reset' | 'activation', hash: string) =>
  and(
    eq(authTokens.tokenHash, hash),
    eq(authTokens.kind, kind),
    isNull(authTokens.usedAt),
    gt(authTokens.expiresAt, deps.now()),
  );

/**
 * Whether a reset or activation link is still open (not used, not expired), without using it: the
 * reset page asks on opening, so that a used link says so before the form is filled (issue 37, item 17).
 */
export async function isLinkOpen(deps: Deps, kind: 'reset' | 'activation', token: string): Promise<boolean> {
  const [row] = await deps.database.db
    .select({ id: authTokens.id })
    .from(authTokens)
    .where(openLink(deps, kind, sha256(token)));
  return row !== undefined;
}

/**
 * Uses a reset or activation token once: sets the password, revokes the user's old access
 * tokens and clears any lock. An unknown, used or expired token gets the expired-link error, found
 * before the new password is hashed: a flood of made-up tokens costs a look-up each, not an argon2
 * hash (issue 37, item 5: it made real logins 20–30× slower).
 */
export async function consumeLinkToken(
  deps: Deps,
  kind: 'reset' | 'activation',
  token: string,
  password: string,
): Promise<void> {
  const { db } = deps.database;
  const expired = new AppError(400, kind === 'reset' ? 'resetLinkExpired' : 'activationLinkExpired');
  if (!(await isLinkOpen(deps, kind, token))) throw expired;
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    // One statement: the link must (still) be open, and using it closes every open link of its kind
    // that the same user holds. Of two links of one user used at once, only one succeeds (the
    // second finds its row already used when the first commits).
    const hash = sha256(token);
    const holder = tx
      .select({ userId: authTokens.userId })
      .from(authTokens)
      .where(openLink(deps, kind, hash));
    const closed = await tx
      .update(authTokens)
      .set({ usedAt: deps.now() })
      .where(and(eq(authTokens.kind, kind), isNull(authTokens.usedAt), inArray(authTokens.userId, holder)))
      .returning({ userId: authTokens.userId, tokenHash: authTokens.tokenHash });
    const row = closed.find((c) => c.tokenHash === hash);
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

/**
 * "Log out" on the server (issue 37, item 7): the session of `claims` is refused from now on, by
 * every instance (the access check reads revoked_sessions with the user, migration 0022 notifies
 * the others). Other sessions of the user stay. A token from before sessions were named (no `sid`)
 * is ended with the user's token version, which ends the user's other sessions too. Rows of
 * sessions whose tokens have expired anyway are removed on the way.
 */
export async function logout(deps: Deps, claims: TokenClaims): Promise<void> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    if (claims.sid === undefined) {
      await tx
        .update(users)
        .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
        .where(and(eq(users.id, claims.sub), eq(users.tokenVersion, claims.tv)));
      return;
    }
    await tx.delete(revokedSessions).where(lte(revokedSessions.expiresAt, now));
    await tx
      .insert(revokedSessions)
      .values({
        sid: claims.sid,
        userId: claims.sub,
        expiresAt: new Date(now.getTime() + deps.tokens.ttlSeconds * 1000),
      })
      .onConflictDoNothing();
  });
}

export const resetMessage = (lang: 'en' | 'fi') => message('passwordReset', lang);
