import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq, sql, type SQLWrapper } from 'drizzle-orm';
import { effectivePermissions, helsinkiDay, idSchema, ROLE, type Permission } from '@kulu/shared';
import type { Database, Db } from '../db/client.js';
import { ClockedCache, type ChangeClock } from '../db/access-changes.js';
import { oncePer, preparedPerDb } from '../db/prepared.js';
import { revokedSessions, users, userSubCompanies, userCostCenters } from '../db/schema/index.js';
import { Scope } from '../lib/scope.js';
import { lockedOutSql } from '../lib/contract-access.js';
import { objectKeys } from '../lib/strict-bodies.js';
import type { AuthUser, Caller, CallerRow, RouteAccess } from '../types.js';
import { sendError } from './errors.js';

/** A client in a route's path: `/api/clients/:clientId/…`, `/api/automation/clients/:clientId`. */
const CLIENT_IN_PATH = /\/clients\/:([A-Za-z]+)/;

/** Routes outside the access catalogue: the OpenAPI pages. */
const UNGUARDED = /^\/api\/docs(\/|$)/;

/** Whether `held` permissions admit a route's `permission` (a list: any one of them). */
export function permits(held: readonly string[], needed: RouteAccess['permission']): boolean {
  if (needed === undefined) return false;
  return typeof needed === 'string' ? held.includes(needed) : needed.some((p) => held.includes(p));
}

/**
 * The token of an `Authorization: Bearer …` header. The scheme is matched case-insensitively (RFC
 * 7235 §2.1): `/api/Token` answers `token_type: "bearer"`, and a client may send it back so.
 */
export function bearerToken(req: FastifyRequest): string | undefined {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/** The request's user, its one Scope (every module's tenancy goes through it) and its Caller. */
async function setCaller(req: FastifyRequest, user: AuthUser | null) {
  req.user = user;
  if (!user) return;
  const { deps } = req.server;
  req.scope = await Scope.forUser(deps.database.db, user);
  req.caller = { user, scope: req.scope, now: deps.now() };
}

/**
 * Deny by default. Every /api route declares `public`, `auth` or a `permission` in its config,
 * or the app refuses to start. On each request the bearer token is verified, the user is
 * checked (so a password change or deactivation revokes old tokens at once; what was read is kept
 * until something it depends on changes, see `keptCaller`) and the declared
 * permission is checked against the shared catalogue.
 */
export function registerAccess(app: FastifyInstance) {
  app.decorate('routeCatalogue', []);
  app.decorateRequest('user', null);
  // Replaced on every request before any handler runs (a scope that sees nothing until signed in).
  app.decorateRequest('scope', null as unknown as Scope);
  app.decorateRequest('lang', 'en');
  app.decorateRequest('userRow', null);
  app.decorateRequest('caller', null);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || UNGUARDED.test(route.url)) return;
    const c = route.config ?? {};
    const declared = [c.public, c.auth, c.permission].filter(Boolean).length;
    if (declared !== 1) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare exactly one of public, auth, permission`,
      );
    }
    const clientParam = CLIENT_IN_PATH.exec(route.url)?.[1];
    if (clientParam !== c.client) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare config.client = '${clientParam ?? ''}' (the client it touches)`,
      );
    }
    for (const m of [route.method].flat()) {
      if (m === 'HEAD') continue;
      app.routeCatalogue.push({
        method: m,
        url: route.url,
        public: c.public,
        auth: c.auth,
        permission: c.permission,
        client: c.client,
        query: objectKeys(route.schema?.querystring),
        body: route.schema?.body !== undefined,
        bodyKeys: route.schema?.body === undefined ? null : objectKeys(route.schema.body),
      });
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const { db } = app.deps.database;
    req.scope = Scope.nobody(db);
    req.caller = null;
    const cfg = req.routeOptions.config ?? {};
    const bearer = bearerToken(req);
    if (cfg.public) {
      await setCaller(req, bearer ? ((await loadUser(app, req, bearer))?.user ?? null) : null);
      return;
    }
    if (
      !req.routeOptions.url ||
      !req.routeOptions.url.startsWith('/api') ||
      UNGUARDED.test(req.routeOptions.url)
    )
      return;
    const caller = bearer ? await loadUser(app, req, bearer) : null;
    await setCaller(req, caller?.user ?? null);
    if (!req.user) return sendError(req, reply, 401, bearer ? 'sessionExpired' : 'unauthorized');
    if (cfg.permission && !permits(req.user.permissions, cfg.permission)) {
      return sendError(req, reply, 403, 'forbidden');
    }
    // Spec §4: a terminated client or one without a valid contract is locked out of its data
    // routes (those declaring a permission), by the same rule that greys its menu: every user of a
    // client, a company's as well as a consultant firm's (a client of type consultant). Routes that
    // declare only `auth` (session, profile, logout, help) stay open; the provider's own users
    // (admins, consultants without a client) are not clients and are never locked out.
    if (cfg.permission && caller!.lockedOut) {
      return sendError(req, reply, 403, 'menuDisabled');
    }
  });

  // Tenancy by construction: the client a route declares (`config.client`) is checked through the
  // caller's Scope before the body is validated, so another client's id answers 404 whatever the
  // body (ids can't be probed). A malformed id is left to the validation (400, the same for all).
  app.addHook('preValidation', async (req) => {
    const param = req.routeOptions.config?.client;
    if (!param) return;
    const clientId = idSchema.safeParse((req.params as Record<string, unknown>)[param]);
    if (clientId.success) await req.scope.assertClient(clientId.data);
  });
}

/**
 * The access check's query, prepared once per database (a named statement: neither drizzle nor
 * PostgreSQL build or plan it again on every request).
 */
const authQuery = preparedPerDb((db: Db) => {
  const idsOf = (column: SQLWrapper, table: typeof userSubCompanies | typeof userCostCenters) =>
    sql<number[] | null>`(${db
      .select({ ids: sql`array_agg(${column} order by ${column})` })
      .from(table)
      .where(eq(table.userId, users.id))})`;
  const caller = {
    id: users.id,
    email: users.email,
    fullName: users.fullName,
    roleId: users.roleId,
    clientId: users.clientId,
    languageId: users.languageId,
    themeId: users.themeId,
    logoFileId: users.logoFileId,
    status: users.status,
    activated: users.activated,
    permissions: users.permissions,
    tokenVersion: users.tokenVersion,
  } satisfies Record<keyof CallerRow, unknown>;
  return db
    .select({
      // Only what the check and the session details use (not the password hash, contact details,
      // login bookkeeping or timestamps, parsed on every request otherwise).
      u: caller,
      subCompanyIds: idsOf(userSubCompanies.subCompanyId, userSubCompanies),
      costCenterIds: idsOf(userCostCenters.costCenterId, userCostCenters),
      lockedOut: sql<boolean>`${users.clientId} is not null and ${lockedOutSql(db, users.clientId, sql.placeholder('day'))}`,
      // The user's sessions ended by "Log out" (a few at most: each is kept until its token expires).
      revokedSessions: sql<string[] | null>`(${db
        .select({ sids: sql`array_agg(${revokedSessions.sid})` })
        .from(revokedSessions)
        .where(eq(revokedSessions.userId, users.id))})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('kulu_access_user');
});

type CallerFound = Awaited<ReturnType<ReturnType<typeof authQuery>['execute']>>[number] | undefined;

/**
 * A user as the access check sees them, in one query: the user row (so a password change or
 * deactivation revokes old tokens at once), a client user's sub-company and cost-center limits, and
 * whether the user's company is locked out on `now`'s day (spec §4), as the `Caller` a request of
 * theirs would have (its Scope built the same way). Null for a missing, inactive or not activated
 * user. The one source of "who is the caller" for requests and for jobs acting for a user.
 */
export async function callerForUser(
  db: Db,
  userId: number,
  operatorId: number | null,
  now: Date,
): Promise<{ caller: Caller; row: CallerRow; lockedOut: boolean } | null> {
  const found = callerFrom(await findCaller(db, userId, helsinkiDay(now)), operatorId);
  if (!found) return null;
  const { user, row, lockedOut } = found;
  return { caller: { user, scope: await Scope.forUser(db, user), now }, row, lockedOut };
}

async function findCaller(db: Db, userId: number, day: string): Promise<CallerFound> {
  const [found] = await authQuery(db).execute({ id: userId, day });
  return found;
}

function callerFrom(
  found: CallerFound,
  operatorId: number | null,
): { user: AuthUser; row: CallerRow; lockedOut: boolean } | null {
  const u = found?.u;
  if (!u || u.status !== 'active' || !u.activated) return null;
  const limited = u.roleId === ROLE.clientUser;
  return {
    user: authUserFrom(
      u,
      operatorId,
      limited ? found.subCompanyIds : null,
      limited ? found.costCenterIds : null,
    ),
    row: u,
    lockedOut: found.lockedOut,
  };
}

/**
 * What `findCaller` found, kept per database until something the query reads changes (issue 13):
 * the access check is then no round trip to the database. Kept while the database's change clock
 * stands still (db/access-changes.ts): this process's own writes move it before they are reported
 * done, other processes' (and psql's) when their notification arrives, a moment after they commit.
 * Keyed by user and business day (the lock-out depends on the day in Europe/Helsinki).
 */
const keptCallers = oncePer((changes: ChangeClock) => new ClockedCache<CallerFound>(changes));

function keptCaller(database: Database, userId: number, day: string): Promise<CallerFound> {
  return keptCallers(database.changes).get(`${userId} ${day}`, () => findCaller(database.db, userId, day));
}

/**
 * The caller behind a bearer token (the token's user as `callerForUser` sees them, whose token version
 * must still be the token's, and whose session was not ended by "Log out": read in the same kept
 * query, so a sign-out costs a request nothing more). The row is kept on the request for handlers
 * that answer with it (the session details).
 */
async function loadUser(
  app: FastifyInstance,
  req: FastifyRequest,
  token: string,
): Promise<{ user: AuthUser; lockedOut: boolean } | null> {
  const claims = await app.deps.tokens.verify(token);
  if (!claims) return null;
  const found = await keptCaller(app.deps.database, claims.sub, helsinkiDay(app.deps.now()));
  const caller = callerFrom(found, claims.op);
  if (!caller || caller.row.tokenVersion !== claims.tv) return null;
  if (claims.sid !== undefined && found?.revokedSessions?.includes(claims.sid)) return null;
  req.userRow = caller.row;
  return caller;
}

function authUserFrom(
  u: CallerRow,
  operatorId: number | null,
  subCompanyIds: number[] | null,
  costCenterIds: number[] | null,
): AuthUser {
  return {
    id: u.id,
    email: u.email,
    fullName: u.fullName,
    roleId: u.roleId,
    clientId: u.clientId,
    operatorId,
    languageId: u.languageId,
    permissions: effectivePermissions(u.roleId, u.permissions) as Permission[],
    subCompanyIds,
    costCenterIds,
  };
}

/** Who calls, for handlers of non-public routes (the access hook guarantees it). */
export function callerOf(req: FastifyRequest): Caller {
  if (!req.caller) throw new Error('callerOf() on a route without authentication');
  return req.caller;
}

/** The caller's user, for handlers of non-public routes (the access hook guarantees it). */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new Error('currentUser() on a route without authentication');
  return req.user;
}
