import type { Permission } from '@kulu/shared';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { users } from './db/schema/index.js';
import type { JobQueue } from './lib/queue.js';
import type { Mailer } from './lib/mailer.js';
import type { Scope } from './lib/scope.js';
import type { TokenService } from './lib/tokens.js';

/** The signed-in caller, loaded fresh from the database on every request. */
export interface AuthUser {
  id: number;
  email: string;
  fullName: string;
  roleId: number;
  clientId: number | null;
  operatorId: number | null;
  languageId: number;
  permissions: Permission[];
  /** null = every sub-company / cost center of the client (or not a client user). */
  subCompanyIds: number[] | null;
  costCenterIds: number[] | null;
}

/**
 * Who calls: the one type for it. The signed-in user (permissions, limits, language), the Scope
 * every query of client data goes through, and the app's clock at the call (`deps.now()`, for rules
 * that depend on today). The access plugin builds it once per request (`callerOf(req)`); a job
 * acting for a user builds it the same way (`callerForUser`).
 */
export interface Caller {
  user: AuthUser;
  scope: Scope;
  now: Date;
}

export interface Deps {
  config: Config;
  database: Database;
  mailer: Mailer;
  tokens: TokenService;
  /** Key for secrets at rest (AES-256-GCM). */
  encryptionKey: Buffer;
  now: () => Date;
  /** Durable jobs (pg-boss on the same database). */
  jobs: JobQueue;
  /**
   * Demo mode: where the first start's demo import stands (GET /api/health `demo`), set once the
   * demo runs (demo/index.ts `startDemo`); until then a demo install answers `importing`.
   */
  demoImport?: () => DemoImportState;
}

/** A demo install's first-start import: `ready` once every demo invoice is imported and computed. */
export type DemoImportState = 'importing' | 'ready';

/** How a route is guarded; every /api route must declare exactly one of these. */
export interface RouteAccess {
  public?: boolean;
  /** Any signed-in user. */
  auth?: boolean;
  /**
   * The permission the caller must hold; a list: any one of them (a look-up shared by several
   * forms). Never a role: what a role may do is its permission set (packages/shared permissions.ts).
   */
  permission?: Permission | readonly Permission[];
  /**
   * The path parameter naming the client this route touches (`/api/clients/:clientId/…`): the
   * access plugin checks it against the caller's Scope before the body is read (another client:
   * 404). A route with a client in its path that does not declare it refuses to start.
   */
  client?: string;
}

/** The columns of the caller's user row that the access check reads on every request. */
export type CallerRow = Pick<
  typeof users.$inferSelect,
  | 'id'
  | 'email'
  | 'fullName'
  | 'roleId'
  | 'clientId'
  | 'languageId'
  | 'themeId'
  | 'logoFileId'
  | 'status'
  | 'activated'
  | 'permissions'
  | 'tokenVersion'
>;

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging
  interface FastifyContextConfig extends RouteAccess {}
  interface FastifyRequest {
    user: AuthUser | null;
    /** The caller's user row as the access check read it (null when signed out). */
    userRow: CallerRow | null;
    /** Tenancy of the caller, built once per request by the access plugin (sees nothing when signed out). */
    scope: Scope;
    /** Who calls (user, Scope, clock), built once per request by the access plugin; null when signed out. */
    caller: Caller | null;
    lang: 'en' | 'fi';
  }
  interface FastifyInstance {
    deps: Deps;
    /**
     * Every /api route with its access, its querystring keys, whether it validates a body and the
     * fields of an object body (null when none or unreadable) — tests walk it.
     */
    routeCatalogue: Array<
      {
        method: string;
        url: string;
        query: string[] | null;
        body: boolean;
        bodyKeys: string[] | null;
      } & RouteAccess
    >;
  }
}
