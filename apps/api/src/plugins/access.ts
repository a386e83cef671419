import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { effectivePermissions, ROLE, type Permission } from '@kulu/shared';
import type { Db } from '../db/client.js';
import { users, userSubCompanies, userCostCenters } from '../db/schema/index.js';
import { Scope } from '../lib/scope.js';
import { isClientLockedOut } from '../lib/contract-access.js';
import type { AuthUser } from '../types.js';
import { sendError } from './errors.js';

/** Routes outside the access catalogue: the OpenAPI pages. */
const UNGUARDED = /^\/api\/docs(\/|$)/;

/**
 * Deny by default. Every /api route declares `public`, `auth` or a `permission` in its config,
 * or the app refuses to start. On each request the bearer token is verified, the user is
 * loaded (so a password change or deactivation revokes old tokens at once) and the declared
 * permission is checked against the shared catalogue.
 */
export function registerAccess(app: FastifyInstance) {
  app.decorate('routeCatalogue', []);
  app.decorateRequest('user', null);
  // Replaced on every request before any handler runs (a scope that sees nothing until signed in).
  app.decorateRequest('scope', null as unknown as Scope);
  app.decorateRequest('lang', 'en');

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || UNGUARDED.test(route.url)) return;
    const c = route.config ?? {};
    const declared = [c.public, c.auth, c.permission].filter(Boolean).length;
    if (declared !== 1) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} must declare exactly one of public, auth, permission`,
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
        roles: c.roles,
        query: queryKeys(route.schema?.querystring),
        body: route.schema?.body !== undefined,
      });
    }
  });

  app.addHook('onRequest', async (req, reply) => {
    const { db } = app.deps.database;
    req.scope = Scope.nobody(db);
    const cfg = req.routeOptions.config ?? {};
    const header = req.headers.authorization;
    const bearer = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
    if (cfg.public) {
      if (bearer) req.user = await loadUser(app, bearer);
      if (req.user) req.scope = await Scope.forUser(db, req.user);
      return;
    }
    if (
      !req.routeOptions.url ||
      !req.routeOptions.url.startsWith('/api') ||
      UNGUARDED.test(req.routeOptions.url)
    )
      return;
    req.user = bearer ? await loadUser(app, bearer) : null;
    if (!req.user) return sendError(req, reply, 401, bearer ? 'sessionExpired' : 'unauthorized');
    // One Scope per request, from the token: every module's tenancy goes through it.
    req.scope = await Scope.forUser(db, req.user);
    if (cfg.roles && !cfg.roles.includes(req.user.roleId)) return sendError(req, reply, 403, 'forbidden');
    if (cfg.permission && !req.user.permissions.includes(cfg.permission)) {
      return sendError(req, reply, 403, 'forbidden');
    }
    // Spec §4: a terminated company or one without a valid contract is locked out of its data
    // routes (those declaring a permission), by the same rule that greys its menu. Routes that
    // declare only `auth` (session, profile, logout, help) stay open; provider users are unaffected.
    const own = req.scope.ownClientId;
    if (cfg.permission && own != null && (await isClientLockedOut(db, own, app.deps.now()))) {
      return sendError(req, reply, 403, 'menuDisabled');
    }
  });
}

/**
 * The names a route's querystring schema (a zod object, possibly wrapped in a pipe, default or
 * optional) accepts, for the tenancy test; null when there is a schema whose keys can't be read.
 */
function queryKeys(schema: unknown, depth = 0): string[] | null {
  if (schema === undefined) return [];
  const s = schema as { shape?: unknown; _zod?: { def?: Record<string, unknown> } } | null;
  if (!s || depth > 5) return null;
  if (s.shape && typeof s.shape === 'object') return Object.keys(s.shape);
  const def = s._zod?.def ?? {};
  for (const inner of [def.in, def.out, def.innerType]) {
    const keys = inner ? queryKeys(inner, depth + 1) : null;
    if (keys) return keys;
  }
  return null;
}

async function loadUser(app: FastifyInstance, token: string): Promise<AuthUser | null> {
  const claims = await app.deps.tokens.verify(token);
  if (!claims) return null;
  const { db } = app.deps.database;
  const [u] = await db.select().from(users).where(eq(users.id, claims.sub));
  if (!u || u.tokenVersion !== claims.tv || u.status !== 'active' || !u.activated) return null;
  return authUserOf(db, u, claims.op);
}

/**
 * The caller as the handlers see it, from a user row (its token already checked): permissions
 * and, for a client user, the sub-companies and cost centers it is limited to.
 */
export async function authUserOf(
  db: Db,
  u: typeof users.$inferSelect,
  operatorId: number | null,
): Promise<AuthUser> {
  let subCompanyIds: number[] | null = null;
  let costCenterIds: number[] | null = null;
  if (u.roleId === ROLE.clientUser) {
    const subs = await db
      .select({ id: userSubCompanies.subCompanyId })
      .from(userSubCompanies)
      .where(eq(userSubCompanies.userId, u.id));
    const ccs = await db
      .select({ id: userCostCenters.costCenterId })
      .from(userCostCenters)
      .where(eq(userCostCenters.userId, u.id));
    subCompanyIds = subs.length ? subs.map((s) => s.id) : null;
    costCenterIds = ccs.length ? ccs.map((s) => s.id) : null;
  }
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

/** The caller, for handlers of non-public routes (the access hook guarantees it). */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw new Error('currentUser() on a route without authentication');
  return req.user;
}
