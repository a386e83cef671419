import { and, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { union, type PgColumn } from 'drizzle-orm/pg-core';
import { ROLE } from '@kulu/shared';
import {
  clients,
  consultantCompanies,
  consultantUserCompanies,
  costCenters,
  subCompanies,
  users,
} from '../db/schema/index.js';
import type { Executor } from '../db/client.js';
import type { AuthUser } from '../types.js';
import { AppError, notFound } from './errors.js';

/**
 * Tenancy in one place. The access plugin builds one `Scope` per request from the token
 * (`req.scope`); every module limits its queries with `scope.where(...)` and checks ids from
 * URLs and query strings with `assertClient` / `assertSubCompany` / `assertRow`. No module
 * decides provider-versus-client on its own (eslint holds that: role checks live here and in
 * the access plugin). Out of scope always answers 404, never 403, so that ids can't be probed.
 */

/** The client filters of a list or report query. */
export interface ClientFilters {
  clientId?: number;
  subCompanyId?: number;
  costCenterId?: number;
}

/** Who the caller is, for tenancy. `nobody`: no signed-in user (sees no client data). */
export type ScopeKind = 'providerAdmin' | 'consultant' | 'companyAdmin' | 'clientUser' | 'system' | 'nobody';

/** Columns of a client-owned table that the scope limits; omit the ones the table lacks. */
export interface ScopeColumns {
  clientId: PgColumn;
  subCompanyId?: PgColumn;
  costCenterId?: PgColumn;
  /**
   * Limited to the operator chosen at sign-in (or in the header; null: all operators) where the
   * caller passes this column: every view of client data does (dashboards, savings, optimization,
   * reports and their exports, plan details, invoices, subscriptions; docs/decisions/0018).
   */
  operatorId?: PgColumn;
  /** Rows whose operator is not known (an invoice not parsed, or failed) pass the operator limit. */
  operatorUnknownPasses?: boolean;
  /**
   * Rows without a client pass the client limit: they are every client's (a general plan, a number
   * skipped for all clients), where the client column is nullable for that reason.
   */
  clientlessPasses?: boolean;
  /**
   * Who may read the row: `'provider'` rows (the provider's own business with the client, e.g. an
   * alert on its client contract) pass only provider-side callers; company users never see them.
   */
  audience?: PgColumn;
}

export interface ScopeInit {
  kind: ScopeKind;
  userId: number | null;
  /** Clients the caller may see; null = every client. */
  clientIds: readonly number[] | null;
  /** null = every sub-company / cost center of the visible clients. */
  subCompanyIds?: readonly number[] | null;
  costCenterIds?: readonly number[] | null;
  /** The operator chosen at sign-in or in the header (null = all operators). */
  operatorId?: number | null;
}

/**
 * The consultant–company pairs of the one rule (docs/decisions/0007): the companies assigned to a
 * consultant's own client (a consultant-type client: every user of it shares its companies) and
 * those assigned to a user personally (the provider's own consultants, who have no client).
 */
const consultantLinks = (db: Executor) =>
  union(
    db
      // Named as the personal pairs' columns: a union's columns are named by its first query.
      .select({ userId: sql<number>`${users.id}`.as('user_id'), clientId: consultantCompanies.clientId })
      .from(consultantCompanies)
      .innerJoin(users, eq(users.clientId, consultantCompanies.consultantClientId)),
    db
      .select({ userId: consultantUserCompanies.userId, clientId: consultantUserCompanies.clientId })
      .from(consultantUserCompanies),
  ).as('consultant_links');

/** The other ends of the consultant links whose `end` is `id`, in id order. */
async function linkedIds(db: Executor, end: 'userId' | 'clientId', id: number): Promise<number[]> {
  const links = consultantLinks(db);
  const other = end === 'userId' ? links.clientId : links.userId;
  const rows = await db
    .select({ id: other })
    .from(links)
    .where(sql`${links[end]} = ${id}`)
    .orderBy(other);
  return rows.map((r) => r.id);
}

/** A consultant's assigned companies (none assigned: none seen), in id order. */
export const assignedClientIds = (db: Executor, userId: number): Promise<number[]> =>
  linkedIds(db, 'userId', userId);

/**
 * The other way round: the consultants who see `clientId` under the same rule (its consultant-type
 * clients' users and the consultants it is assigned to personally), e.g. to mail them about it.
 */
export const consultantIdsOfClient = (db: Executor, clientId: number): Promise<number[]> =>
  linkedIds(db, 'clientId', clientId);

const idIn = (col: PgColumn, ids: readonly number[]): SQL =>
  ids.length ? inArray(col, [...ids]) : sql`false`;

export class Scope {
  readonly kind: ScopeKind;
  readonly userId: number | null;
  readonly clientIds: readonly number[] | null;
  readonly subCompanyIds: readonly number[] | null;
  readonly costCenterIds: readonly number[] | null;
  readonly operatorId: number | null;

  constructor(
    private readonly db: Executor,
    init: ScopeInit,
  ) {
    this.kind = init.kind;
    this.userId = init.userId;
    this.clientIds = init.clientIds === null ? null : Object.freeze([...init.clientIds]);
    this.subCompanyIds = init.subCompanyIds ? Object.freeze([...init.subCompanyIds]) : null;
    this.costCenterIds = init.costCenterIds ? Object.freeze([...init.costCenterIds]) : null;
    this.operatorId = init.operatorId ?? null;
  }

  /** Sees nothing: requests without a signed-in user. */
  static nobody(db: Executor): Scope {
    return new Scope(db, { kind: 'nobody', userId: null, clientIds: [] });
  }

  /** Sees everything: background jobs acting for the system, never a request. */
  static system(db: Executor): Scope {
    return new Scope(db, { kind: 'system', userId: null, clientIds: null });
  }

  /** The scope of a signed-in user (the access plugin calls this once per request). */
  static async forUser(db: Executor, user: AuthUser): Promise<Scope> {
    const base = { userId: user.id, operatorId: user.operatorId };
    switch (user.roleId) {
      case ROLE.providerAdmin:
        return new Scope(db, { ...base, kind: 'providerAdmin', clientIds: null });
      case ROLE.consultant:
        return new Scope(db, {
          ...base,
          kind: 'consultant',
          clientIds: await assignedClientIds(db, user.id),
        });
      case ROLE.companyAdmin:
        return new Scope(db, {
          ...base,
          kind: 'companyAdmin',
          clientIds: user.clientId == null ? [] : [user.clientId],
        });
      case ROLE.clientUser:
        return new Scope(db, {
          ...base,
          kind: 'clientUser',
          clientIds: user.clientId == null ? [] : [user.clientId],
          subCompanyIds: user.subCompanyIds,
          costCenterIds: user.costCenterIds,
        });
      default:
        return new Scope(db, { ...base, kind: 'nobody', clientIds: [] });
    }
  }

  /** Provider side (admin, consultant): works for client companies rather than in one. */
  get isProvider(): boolean {
    return this.kind === 'providerAdmin' || this.kind === 'consultant' || this.kind === 'system';
  }

  /** The caller's own client for client-side users (company admin, client user), else null. */
  get ownClientId(): number | null {
    return !this.isProvider && this.clientIds?.length === 1 ? this.clientIds[0] : null;
  }

  /** Whether the caller may see rows of this client (sub-company limits aside). */
  canSeeClient(clientId: number | null | undefined): boolean {
    if (clientId == null) return false;
    return this.clientIds === null || this.clientIds.includes(clientId);
  }

  /**
   * The drizzle condition limiting a query on a client-owned table to this scope; undefined when
   * nothing needs limiting. Combine with `and(...)`.
   */
  where(cols: ScopeColumns): SQL | undefined {
    return this.limits(cols, (col, ids, key) => (key === 'o' ? eq(col, ids[0]) : idIn(col, ids)));
  }

  /**
   * As `where`, for a statement prepared once per shape (issue 13): the ids are placeholders
   * (`scope_<limit><i>`), `shape` names all the SQL depends on (which limits apply, how many ids
   * each) and `values` fills the placeholders. Two scopes of one shape get the same SQL.
   */
  wherePrepared(cols: ScopeColumns): {
    where: SQL | undefined;
    shape: string;
    values: Record<string, number>;
  } {
    const values: Record<string, number> = {};
    const shape: string[] = [];
    const where = this.limits(cols, (col, ids, key) => {
      shape.push(`${key}${ids.length}`);
      const held = ids.map((id, i) => {
        values[`scope_${key}${i}`] = id;
        return sql.placeholder(`scope_${key}${i}`) as unknown as number;
      });
      return key === 'o' ? eq(col, held[0]) : idIn(col, held);
    });
    if (this.hidesProviderRows(cols)) shape.push('a');
    return { where, shape: shape.join(','), values };
  }

  /** The scope's limits on `cols`, each list of ids written by `ids` (by value or by placeholder). */
  private limits(
    cols: ScopeColumns,
    ids: (col: PgColumn, list: readonly number[], key: 'c' | 's' | 'k' | 'o') => SQL,
  ): SQL | undefined {
    const parts: SQL[] = [];
    if (this.clientIds !== null) {
      const own = ids(cols.clientId, this.clientIds, 'c');
      parts.push(cols.clientlessPasses ? or(own, isNull(cols.clientId))! : own);
    }
    if (this.subCompanyIds && cols.subCompanyId) parts.push(ids(cols.subCompanyId, this.subCompanyIds, 's'));
    if (this.costCenterIds && cols.costCenterId) parts.push(ids(cols.costCenterId, this.costCenterIds, 'k'));
    if (this.operatorId != null && cols.operatorId) {
      const chosen = ids(cols.operatorId, [this.operatorId], 'o');
      parts.push(cols.operatorUnknownPasses ? or(chosen, isNull(cols.operatorId))! : chosen);
    }
    if (this.hidesProviderRows(cols)) parts.push(sql`${cols.audience} <> 'provider'`);
    return parts.length ? and(...parts) : undefined;
  }

  /** Rows for the provider's eyes are left out for everyone but the provider side. */
  private hidesProviderRows(cols: ScopeColumns): cols is ScopeColumns & { audience: PgColumn } {
    return cols.audience != null && !this.isProvider;
  }

  /**
   * A client the caller has just created becomes theirs to see: a consultant is assigned it (through
   * their consultant client, or personally when they have none); nothing to do for anyone else.
   */
  async assignToCaller(tx: Executor, clientId: number): Promise<void> {
    if (this.kind !== 'consultant' || this.userId == null) return;
    const [me] = await tx.select({ clientId: users.clientId }).from(users).where(eq(users.id, this.userId));
    if (me?.clientId != null) {
      await tx
        .insert(consultantCompanies)
        .values({ consultantClientId: me.clientId, clientId })
        .onConflictDoNothing();
    } else {
      await tx
        .insert(consultantUserCompanies)
        .values({ userId: this.userId, clientId })
        .onConflictDoNothing();
    }
  }

  /** Throws 404 unless the client exists and is in scope (ids from URLs: `:clientId`). */
  async assertClient(clientId: number): Promise<void> {
    if (!this.canSeeClient(clientId)) throw notFound();
    const [c] = await this.db
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.id, clientId), this.where({ clientId: clients.id })));
    if (!c) throw notFound();
  }

  /**
   * The client a request's filters are about: its `clientId` (in scope), else the caller's own, else
   * the owner of the sub-company or cost center filtered on (see `ownerOfFilters`); 400 when none is
   * (a provider user naming no client).
   */
  async clientOfFilters(q: ClientFilters): Promise<number> {
    const [, clientId] = await Promise.all([
      q.clientId != null ? this.assertClient(q.clientId) : undefined,
      this.ownerOfFilters(q.clientId ?? this.ownClientId, q),
    ]);
    if (clientId == null) throw new AppError(400, 'validation', { clientId: 'required' });
    return clientId;
  }

  /**
   * `clientId` checked against the sub-company and cost center filtered on: each must be in scope
   * and of that client, else 404; without a client, the filters' owner (or nothing).
   */
  async ownerOfFilters(
    clientId: number | null | undefined,
    q: ClientFilters,
  ): Promise<number | null | undefined> {
    const [sub, center] = await Promise.all([
      q.subCompanyId != null ? this.assertSubCompany(q.subCompanyId) : undefined,
      q.costCenterId != null ? this.assertCostCenter(q.costCenterId) : undefined,
    ]);
    for (const owner of [sub?.clientId, center?.clientId]) {
      if (owner == null) continue;
      if (clientId != null && owner !== clientId) throw notFound();
      clientId = owner;
    }
    return clientId;
  }

  /**
   * One client's rows within the scope, narrowed to the sub-company and cost center of the filters
   * (checked against the scope beforehand, e.g. by `ownerOfFilters`). Combine with `and(...)`.
   */
  ofClient(
    clientId: number,
    cols: ScopeColumns & { subCompanyId: PgColumn; costCenterId: PgColumn },
    q: ClientFilters,
  ): SQL | undefined {
    // The four columns by name: a whole table passed as `cols` must not bring other scope keys
    // (an `audience` column, say) into the limits.
    const { clientId: client, subCompanyId, costCenterId, operatorId } = cols;
    return and(
      eq(client, clientId),
      this.where({ clientId: client, subCompanyId, costCenterId, operatorId }),
      q.subCompanyId != null ? eq(subCompanyId, q.subCompanyId) : undefined,
      q.costCenterId != null ? eq(costCenterId, q.costCenterId) : undefined,
    );
  }

  /**
   * Is the sub-company one of `clientId`'s and within the caller's limits? For a value a row is
   * given (the caller answers 400 for the field), read through `db` (a transaction's, when in one).
   */
  async hasSubCompany(clientId: number, subCompanyId: number, db: Executor = this.db): Promise<boolean> {
    return (await this.subCompany(subCompanyId, db))?.clientId === clientId;
  }

  /** Throws 404 unless the sub-company exists and is in scope; returns its client. */
  async assertSubCompany(subCompanyId: number): Promise<{ id: number; clientId: number }> {
    const s = await this.subCompany(subCompanyId, this.db);
    if (!s) throw notFound();
    return s;
  }

  /** The sub-company and its client, if it exists and is in scope. */
  private async subCompany(subCompanyId: number, db: Executor) {
    const [s] = await db
      .select({ id: subCompanies.id, clientId: subCompanies.clientId })
      .from(subCompanies)
      .where(
        and(
          eq(subCompanies.id, subCompanyId),
          this.where({ clientId: subCompanies.clientId, subCompanyId: subCompanies.id }),
        ),
      );
    return s;
  }

  /** Throws 404 unless the cost center exists and is in scope; returns its client. */
  async assertCostCenter(costCenterId: number): Promise<{ id: number; clientId: number }> {
    const [c] = await this.db
      .select({ id: costCenters.id, clientId: costCenters.clientId })
      .from(costCenters)
      .where(
        and(
          eq(costCenters.id, costCenterId),
          this.where({
            clientId: costCenters.clientId,
            subCompanyId: costCenters.subCompanyId,
            costCenterId: costCenters.id,
          }),
        ),
      );
    if (!c) throw notFound();
    return c;
  }

  /**
   * Throws 404 for a missing row or one outside the scope (rows loaded without `where`); returns
   * the row. A row without a sub-company / cost center passes those limits only when none apply.
   */
  assertRow<R extends { clientId: number | null }>(
    row: (R & { subCompanyId?: number | null; costCenterId?: number | null }) | null | undefined,
  ): R {
    if (!row || !this.canSeeClient(row.clientId)) throw notFound();
    if (this.subCompanyIds && 'subCompanyId' in row) {
      if (row.subCompanyId == null || !this.subCompanyIds.includes(row.subCompanyId)) throw notFound();
    }
    if (this.costCenterIds && 'costCenterId' in row) {
      if (row.costCenterId == null || !this.costCenterIds.includes(row.costCenterId)) throw notFound();
    }
    return row;
  }
}
