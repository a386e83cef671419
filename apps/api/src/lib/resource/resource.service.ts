import { and, asc, desc, eq, getTableColumns, ne, or, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type {
  ActivityAction,
  ActivityArea,
  MasterListQuery,
  MasterResource,
  MessageCode,
  MasterList,
} from '@kulu/shared';
import type { Db, Executor, Tx } from '../../db/client.js';
import { AppError, notFound } from '../errors.js';
import { logActivity } from '../activity-log.js';
import type { ScopeColumns } from '../scope.js';
import type { AuthUser, Caller, Deps } from '../../types.js';

/**
 * The generic service behind every declared resource (the masters first, nested resources such
 * as a client's sub-companies too): list (paging, sorting, search, filters), detail, create,
 * update and delete, each write in one transaction with its after-write hook, with duplicate and
 * in-use checks made explicitly and the database's own constraints mapped to the same answers.
 */

export type Expr = PgColumn | SQL;
export type Row = Record<string, unknown>;
/** The shared declaration a resource is built from (packages/shared `defineMaster`). */
export type ResourceMeta = MasterResource;

/** What a write did, as the after-write hook sees it (e.g. the activity log). */
export type WriteEvent = (
  | { type: 'create'; id: number; before: null; after: Row; user: AuthUser; parentId?: number }
  | { type: 'update'; id: number; before: Row; after: Row; user: AuthUser; parentId?: number }
  | { type: 'delete'; id: number; before: Row; after: null; user: AuthUser; parentId?: number }
) & {
  /** What `afterSave` answered (e.g. what to mail after the commit). */
  saved?: unknown;
};

/**
 * A resource nested under a parent row: `/api/clients/:clientId/sub-companies`. The parent id
 * comes from the path (validated as an id), must be a row the caller's scope may see (else 404),
 * limits every query and is written into `column` on create.
 */
export interface ParentDef {
  /** The path parameter, e.g. `clientId`. */
  param: string;
  /** This resource's column that points at the parent. */
  column: PgColumn;
  /** The parent table's id column. */
  parentId: PgColumn;
  /** The parent's columns that the caller's scope limits (for `clients` itself: `{ clientId: clients.id }`). */
  parentScope?: ScopeColumns;
  /**
   * The parent is the client itself: the routes declare it (`config.client`) and the access plugin
   * checks it through the Scope, as for every route with a client in its path.
   */
  isClient?: boolean;
}

/** A create or update as the write step sees it: the row is written, not yet read back. */
export interface SaveEvent {
  type: 'create' | 'update';
  id: number;
  /** The validated body. */
  input: Row;
  /** The entity before an update (null on create). */
  existing: Row | null;
  caller: Caller;
  parentId?: number;
}

/**
 * A resource whose rows belong to a client named by the request rather than its path (e.g.
 * `/api/invoice-users?clientId=…`, or the caller's own client): the list, export and options
 * resolve it from their query and see only its rows; a create resolves it from its body and
 * writes it into `column`. A read, update or delete by id is limited by the tenancy
 * (`scopeColumns`) alone: the row keeps its client.
 */
export interface OwnerDef {
  column: PgColumn;
  /** The owner's id from the query or body (a throw, e.g. 404 for one out of scope, refuses). */
  resolve: (caller: Caller, values: Row, from: 'query' | 'body') => Promise<number>;
}

/**
 * The row's identity in the path when it is not its id: a client's operator contracts are
 * `/:operatorId`, one row per operator under the client (`column`, unique under the parent; its
 * values are ids). The get, update and delete routes name the row by it; a keyed resource selects
 * its `id` (the writes, the log and the unique rules still use the id).
 */
export interface KeyDef {
  /** The path parameter, e.g. `operatorId`. */
  param: string;
  /** The column it names, e.g. `client_operators.operator_id`. */
  column: PgColumn;
  /**
   * PUT creates the row when none has the key (the key is written into `column`), else replaces
   * it; there is no POST. Answers 200 either way, with the created or updated message.
   */
  upsert?: boolean;
  /** The id column the key points at: an upsert of a key that names no row answers 404. */
  references?: PgColumn;
}

export interface UniqueRule {
  /** The database unique index this rule mirrors (maps a concurrent 23505 to the same answer). */
  index: string;
  /** Answered with 409; default: the resource's `messages.duplicate`. */
  code?: MessageCode;
  /**
   * Rows that would collide with the values `v`. Without it the rule only answers the index's
   * violation (checked elsewhere: by `validate`, or an index of another table the write touches).
   */
  where?: (v: Row) => SQL;
}

/** How a unique index compares an input value with its column. */
export type UniqueMatch =
  /** As it is. */
  | 'same'
  /** Case-insensitively (`lower(column)`). */
  | 'lower'
  /** As it is, with no value (null) one value of its own (`coalesce(column, 0)`). */
  | 'orNull';

/**
 * A unique rule from its index's columns: each input key names the table's column of that name
 * and how the index compares it (a plan's name is unique per operator and client, case-insensitively:
 * `uniqueIndex(plans, 'plans_name_uq', { operatorId: 'same', name: 'lower', clientId: 'orNull' })`).
 */
export function uniqueIndex<T extends PgTable>(
  table: T,
  index: string,
  columns: { [K in keyof T['_']['columns']]?: UniqueMatch },
  code?: MessageCode,
): UniqueRule {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const condition = (col: PgColumn, v: unknown, how: UniqueMatch) =>
    how === 'lower'
      ? sql`lower(${col}) = lower(${v})`
      : how === 'orNull'
        ? sql`coalesce(${col}, 0) = ${v ?? 0}`
        : eq(col, v);
  return {
    index,
    ...(code && { code }),
    where: (v) =>
      and(
        ...Object.entries(columns as Record<string, UniqueMatch>).map(([key, how]) =>
          condition(all[key], v[key], how),
        ),
      )!,
  };
}

export interface ResourceDef<M extends ResourceMeta = ResourceMeta> {
  meta: M;
  table: PgTable;
  id: PgColumn;
  /** Entity key → the expression selected for it (joined names are scalar subqueries). */
  select: Record<string, Expr>;
  /** The option label of `/options` (default: select.name). */
  optionLabel?: Expr;
  /** Client-owned rows: the columns that limit them to the caller's scope (lib/scope.ts). */
  scopeColumns?: ScopeColumns;
  /**
   * The table's rows that are this resource's at all (e.g. the users with one role): every
   * list, read and write sees only them; `toValues` must write rows that meet it.
   */
  rows?: SQL;
  /** Input key → the id column of the row it must point at (checked: unknown id = invalid). */
  refs?: Record<string, PgColumn>;
  unique?: UniqueRule[];
  /** Columns of other tables that point at this resource's id: a row they use cannot be deleted. */
  referencedBy?: PgColumn[];
  /**
   * Input → column values; `existing` is the current entity on update. Runs after `validate`,
   * inside the write's transaction (`tx`, for values that must be read, e.g. a price).
   */
  toValues?: (
    input: Row,
    existing: Row | null,
    caller: Caller,
    at: { tx: Tx; parentId?: number },
  ) => Row | Promise<Row>;
  /**
   * Extra rules checked inside the write transaction (after an update's row was found, before the
   * unique rules); throw AppError to refuse. `parentId`: the parent of the path, if nested.
   */
  validate?: (tx: Tx, input: Row, existing: Row | null, caller: Caller, parentId?: number) => Promise<void>;
  /**
   * A write step of its own inside the write's transaction, after the row's insert or update and
   * before it is read back as the entity: e.g. rows of a link table from the input's id lists
   * (the entity's subquery columns then show them).
   */
  afterSave?: (tx: Tx, event: SaveEvent) => Promise<unknown>;
  /**
   * After the write's transaction committed (run by the routes, which hold the app's deps): what
   * must not be undone with the write nor hold it, e.g. a mail. A throw answers the request with
   * the error; the write stays.
   */
  afterCommit?: (deps: Deps, event: WriteEvent) => Promise<void>;
  /**
   * The list answer's `meta.totals`, computed over the whole list (`where`: its tenancy, parent,
   * search and filters), e.g. the sum of a money column.
   */
  totals?: (db: Db, list: { where: SQL | undefined; caller: Caller; parentId?: number }) => Promise<Row>;
  /** Nested under a parent row (the route's base path carries its `:param`). */
  parent?: ParentDef;
  /** Owned by a client the request names (not its path); see OwnerDef. */
  owner?: OwnerDef;
  /** The row is named in the path by another column than its id; see KeyDef. */
  key?: KeyDef;
  /** Sort keys that are no entity key, or sort otherwise than by it: key → the expression. */
  sortBy?: Record<string, Expr>;
  /**
   * Runs inside the write's transaction after every create, update and delete, with the row
   * before and after (as the entity). A throw rolls the write back.
   */
  afterWrite?: (tx: Tx, event: WriteEvent) => Promise<void>;
  /** The activity log's area of this resource's changes (default `masters`). */
  activityArea?: ActivityArea;
  /** The activity log's entity name of this resource's rows (default: the resource key). */
  activityEntity?: string;
  /** The activity log's action of a write (default: its type), e.g. `activate` for a status change. */
  activityAction?: (event: WriteEvent) => ActivityAction;
  /** The message a create or update answers with (default: the declaration's), e.g. per status. */
  savedMessage?: (row: Row, type: 'create' | 'update') => MessageCode;
}

/**
 * Every write of every resource is logged (lib/activity-log.ts) in its transaction, after the
 * resource's own hook: who, which client (the row's `clientId`, else a client parent's id), the
 * resource key and the entity before and after.
 */
async function afterWrite(tx: Tx, def: ResourceDef, event: WriteEvent): Promise<void> {
  await def.afterWrite?.(tx, event);
  const row = event.after ?? event.before;
  const rowClient = typeof row?.clientId === 'number' ? row.clientId : null;
  const parentClient =
    def.parent && getTableConfig(def.parent.parentId.table as PgTable).name === 'clients'
      ? (event.parentId ?? null)
      : null;
  await logActivity(tx, {
    userId: event.user.id,
    clientId: rowClient ?? parentClient,
    area: def.activityArea ?? 'masters',
    action: def.activityAction?.(event) ?? event.type,
    entity: def.activityEntity ?? def.meta.key,
    entityId: event.id,
    before: event.before,
    after: event.after,
  });
}

/** LIKE's wildcards (`%`, `_`) and its escape character, matched literally (used with `escape '\\'`). */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** `%text%` for an `ilike … escape '\\'` that finds the typed text anywhere, wildcards included. */
export const containsPattern = (s: string) => `%${escapeLike(s)}%`;

/** Tenancy and parent: the rows of this resource the caller may touch at all. */
function baseConditions(def: ResourceDef, caller: Caller, parentId?: number): SQL[] {
  const conds: SQL[] = def.rows ? [def.rows] : [];
  if (def.scopeColumns) {
    const scope = caller.scope.where(def.scopeColumns);
    if (scope) conds.push(scope);
  }
  if (def.parent) {
    if (parentId === undefined) throw new Error(`resource ${def.meta.key} needs its parent id`);
    conds.push(eq(def.parent.column, parentId));
  }
  if (def.owner && parentId !== undefined) conds.push(eq(def.owner.column, parentId));
  return conds;
}

/** The parent row exists and is in the caller's scope; anything else is 404 (ids are not probed). */
export async function assertParent(db: Executor, def: ResourceDef, caller: Caller, parentId: number) {
  const p = def.parent;
  if (!p) return;
  const scope = p.parentScope ? caller.scope.where(p.parentScope) : undefined;
  const [hit] = await db
    .select({ id: p.parentId })
    .from(p.parentId.table as PgTable)
    .where(and(eq(p.parentId, parentId), scope))
    .limit(1);
  if (!hit) throw notFound();
}

/**
 * `"table"."column"`: a column named with its table, as a subquery column must name the columns
 * it correlates (drizzle writes a one-table select's columns bare, which inside a subquery would
 * resolve to the subquery's own table when it has a column of that name).
 */
export const qualified = (col: PgColumn) =>
  sql`${sql.identifier(getTableConfig(col.table as PgTable).name)}.${sql.identifier(col.name)}`;

/** `(select <name> from <target> where <target.id> = <fk>)`: a joined name as a scalar subquery. */
export const nameOf = (name: PgColumn, targetId: PgColumn, fk: PgColumn) =>
  sql<
    string | null
  >`(select ${qualified(name)} from ${targetId.table} where ${qualified(targetId)} = ${qualified(fk)})`;

/**
 * `[{ id, name }]` of the rows a link table joins to this row (`link.owner = <ownerId>`), by
 * name: e.g. a user's sub-companies, as a subquery column (`[]` for none).
 */
export const linkedNames = (
  link: { owner: PgColumn; target: PgColumn },
  target: { id: PgColumn; name: PgColumn },
  ownerId: PgColumn,
) =>
  sql`coalesce((select json_agg(json_build_object('id', ${qualified(target.id)}, 'name', ${qualified(target.name)}) order by ${qualified(target.name)}) from ${link.owner.table} join ${target.id.table} on ${qualified(target.id)} = ${qualified(link.target)} where ${qualified(link.owner)} = ${qualified(ownerId)}), '[]'::json)`;

const isTextColumn = (meta: MasterResource, key: string) => {
  const c = meta.columns.find((col) => col.key === key);
  return (c ? c.type === 'text' : false) || /Name$|^name$/.test(key);
};

/** The WHERE of a list, an export or an option list: tenancy, search and declared filters. */
export function listConditions(
  def: ResourceDef,
  caller: Caller,
  query: Partial<MasterListQuery>,
  parentId?: number,
): SQL | undefined {
  const conds = baseConditions(def, caller, parentId);
  if (query.q) {
    const pattern = containsPattern(query.q);
    const parts = def.meta.searchable.map((k) => sql`${def.select[k]} ilike ${pattern} escape '\\'`);
    conds.push(or(...parts)!);
  }
  for (const key of Object.keys(def.meta.filters)) {
    const v = query[key];
    if (v !== undefined && v !== null) conds.push(sql`${def.select[key]} = ${v}`);
  }
  return conds.length ? and(...conds) : undefined;
}

function orderOf(def: ResourceDef, query: Partial<MasterListQuery>): SQL[] {
  const key = query.sort ?? def.meta.defaultSort;
  const expr = def.select[key] ?? def.id;
  const sortExpr = def.sortBy?.[key]
    ? sql`${def.sortBy[key]}`
    : isTextColumn(def.meta, key)
      ? sql`lower(${expr})`
      : sql`${expr}`;
  const order = query.sort ? query.order : (def.meta.defaultOrder ?? query.order);
  const dir = order === 'desc' ? desc : asc;
  return [dir(sortExpr), dir(def.id)];
}

function selectRows(db: Executor, def: ResourceDef) {
  // The select shape is dynamic per resource; its rows are checked by the entity schema on the way out.
  return db.select(def.select as Record<string, PgColumn>).from(def.table as PgTable);
}

/** A selected row as the entity: times travel as ISO strings. */
const entityOf = (row: Row): Row => {
  for (const [k, v] of Object.entries(row)) if (v instanceof Date) row[k] = v.toISOString();
  return row;
};

export async function listRows(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  query: MasterListQuery,
  parentId?: number,
): Promise<MasterList<Row> & Row> {
  const where = listConditions(def, caller, query, parentId);
  const [items, [{ n }], totals] = await Promise.all([
    selectRows(db, def)
      .where(where)
      .orderBy(...orderOf(def, query))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(def.table as PgTable)
      .where(where),
    def.totals?.(db, { where, caller, parentId }),
  ]);
  return {
    items: items.map(entityOf),
    total: Number(n),
    page: query.page,
    pageSize: query.pageSize,
    ...totals,
  };
}

/** Every row of the current list (no paging), in batches, for the export. */
export async function* allRows(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  query: Partial<MasterListQuery>,
  parentId?: number,
  batch = 1000,
): AsyncGenerator<Row[]> {
  const where = listConditions(def, caller, query, parentId);
  for (let offset = 0; ; offset += batch) {
    const rows = await selectRows(db, def)
      .where(where)
      .orderBy(...orderOf(def, query))
      .limit(batch)
      .offset(offset);
    if (rows.length) yield rows.map(entityOf);
    if (rows.length < batch) return;
  }
}

export async function optionRows(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  query: Partial<MasterListQuery>,
  parentId?: number,
) {
  const label = def.optionLabel ?? def.select.name;
  return db
    .select({ id: sql<number>`${def.id}`, name: sql<string>`${label}` })
    .from(def.table as PgTable)
    .where(listConditions(def, caller, query, parentId))
    .orderBy(sql`lower(${label})`, def.id)
    .limit(1000);
}

/**
 * The row as the entity, if the caller may touch it; `lock`: held for the write's transaction
 * (also for a workflow written beside the resource, e.g. a status change). `id`: the row's
 * identity in the path, i.e. its id, or its `key` column's value for a keyed resource.
 */
export async function findRow(
  db: Executor,
  def: ResourceDef,
  caller: Caller,
  id: number,
  parentId?: number,
  lock = false,
): Promise<Row | null> {
  const identity = def.key?.column ?? def.id;
  const query = selectRows(db, def).where(and(eq(identity, id), ...baseConditions(def, caller, parentId)));
  const [row] = lock ? await query.for('update') : await query;
  return row ? entityOf(row) : null;
}

export async function getRow<T = Row>(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  id: number,
  parentId?: number,
): Promise<T> {
  const row = await findRow(db, def, caller, id, parentId);
  if (!row) throw notFound();
  return row as T;
}

/** The Postgres error code and constraint behind a driver (pg, PGlite) or drizzle error. */
export function pgErrorOf(err: unknown): { code?: string; constraint?: string } {
  for (
    let e = err as { code?: unknown; constraint?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    i++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, constraint: typeof e.constraint === 'string' ? e.constraint : undefined };
    }
    e = e.cause as typeof e;
  }
  return {};
}

/**
 * The safety net under the explicit checks: a unique violation is the resource's duplicate
 * answer (409), a foreign-key violation on delete its in-use answer (409) and on a write an
 * invalid reference (400). Anything else is rethrown.
 */
export function mapDbError(err: unknown, def: ResourceDef, phase: 'write' | 'delete'): never {
  if (err instanceof AppError) throw err;
  const { code, constraint } = pgErrorOf(err);
  if (code === '23505') {
    const rule = def.unique?.find((u) => u.index === constraint);
    throw new AppError(409, rule?.code ?? def.meta.messages.duplicate);
  }
  if (code === '23503') {
    if (phase === 'delete') throw new AppError(409, def.meta.messages.inUse);
    throw new AppError(400, 'validation');
  }
  throw err;
}

/**
 * The checks of a write and its values: the references (a client one within the caller's Scope),
 * the resource's rules (`validate`), then the values (`toValues`, which may read: e.g. a price) with
 * the row's parent or owner and the key of the path (an upsert's), then the unique rules over them.
 * `id`: the row's id on update.
 */
async function checkWrite(
  tx: Tx,
  def: ResourceDef,
  caller: Caller,
  input: Row,
  existing: Row | null,
  parentId?: number,
  id?: number,
  key?: number,
): Promise<Row> {
  const invalid: Record<string, string> = {};
  // A client-owned row's client is one the caller's Scope may see, like every other reference.
  const clientKey = def.scopeColumns ? columnKey(def, def.scopeColumns.clientId) : undefined;
  for (const [key, col] of Object.entries(def.refs ?? {})) {
    const v = input[key];
    if (v === null || v === undefined) continue;
    if (key === clientKey && !caller.scope.canSeeClient(v as number)) invalid[key] = 'invalid';
    else if (!(await exists(tx, col, v))) invalid[key] = 'invalid';
  }
  if (Object.keys(invalid).length) throw new AppError(400, 'validation', invalid);
  await def.validate?.(tx, input, existing, caller, parentId);
  const target = def.key?.references;
  if (!existing && key !== undefined && target && !(await exists(tx, target, key))) throw notFound();
  const values = def.toValues
    ? await def.toValues(input, existing, caller, { tx, parentId })
    : defaultValues(def, input);
  // A nested row stays under its parent (the unique rules see it); an owned one keeps its owner.
  const owner = def.parent?.column ?? (existing ? undefined : def.owner?.column);
  if (owner) values[columnKey(def, owner)] = parentId;
  if (def.key && key !== undefined) values[columnKey(def, def.key.column)] = key;
  for (const rule of def.unique ?? []) {
    if (!rule.where) continue;
    const [dup] = await tx
      .select({ id: def.id })
      .from(def.table as PgTable)
      .where(and(rule.where(values), id === undefined ? undefined : ne(def.id, id)))
      .limit(1);
    if (dup) throw new AppError(409, rule.code ?? def.meta.messages.duplicate);
  }
  return values;
}

/** `tx.execute` answers `{ rows }` on node-postgres and PGlite alike. */
const rowsOf = (res: unknown): Row[] => ((res as { rows?: Row[] }).rows ?? (res as Row[])) as Row[];

/** Whether a row has `value` in `col` (a reference's target, a row that uses this one). */
const exists = async (tx: Executor, col: PgColumn, value: unknown): Promise<boolean> => {
  const rows = await tx.execute(sql`select 1 as hit from ${col.table} where ${col} = ${value} limit 1`);
  return rowsOf(rows).length > 0;
};

/** The table's property key of a column (drizzle's insert/update objects are keyed by it). */
const columnKey = (def: ResourceDef, col: PgColumn): string => {
  const hit = Object.entries(getTableColumns(def.table)).find(([, c]) => c === col);
  if (!hit) throw new Error(`column ${col.name} is not a column of resource ${def.meta.key}`);
  return hit[0];
};

const defaultValues = (def: ResourceDef, input: Row): Row => {
  const columns = getTableColumns(def.table);
  return Object.fromEntries(Object.entries(input).filter(([k]) => k in columns));
};

export async function createRow(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  input: Row,
  parentId?: number,
  deps?: Deps,
): Promise<Row> {
  return (await saveRow(db, def, caller, input, parentId, deps)).after!;
}

/** `id`: the row's identity in the path (its id, or its key's value); see findRow. */
export async function updateRow(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  id: number,
  input: Row,
  parentId?: number,
  deps?: Deps,
): Promise<Row> {
  return (await saveRow(db, def, caller, input, parentId, deps, id)).after!;
}

/** PUT of a keyed `upsert` resource: replaces the row with the key, or adds it (KeyDef). */
export async function upsertRow(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  key: number,
  input: Row,
  parentId?: number,
  deps?: Deps,
): Promise<{ row: Row; created: boolean }> {
  const event = await saveRow(db, def, caller, input, parentId, deps, key);
  return { row: event.after!, created: event.type === 'create' };
}

/** The id of a keyed resource's row (its entity selects it: KeyDef). */
const idOf = (def: ResourceDef, row: Row): number => {
  if (typeof row.id !== 'number') throw new Error(`resource ${def.meta.key}: a keyed row selects its id`);
  return row.id;
};

/**
 * A create (no `path`) or an update (`path`: the row's identity in the path; an upsert's adds the
 * row when there is none) in one transaction: the values, the checks, the write, the write step,
 * the row read back as the entity, the after-write hook and the log; after the commit the
 * resource's `afterCommit` (when the app's deps are given). Answers what was written.
 */
async function saveRow(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  input: Row,
  parentId: number | undefined,
  deps: Deps | undefined,
  path?: number,
): Promise<WriteEvent> {
  let event: WriteEvent;
  try {
    event = await db.transaction(async (tx) => {
      const existing = path === undefined ? null : await findRow(tx, def, caller, path, parentId, true);
      if (path !== undefined && !existing && !def.key?.upsert) throw notFound();
      const updateId = existing ? (def.key ? idOf(def, existing) : path) : undefined;
      const values = await checkWrite(tx, def, caller, input, existing, parentId, updateId, path);
      let id = updateId;
      if (id === undefined) {
        [{ id }] = (await tx
          .insert(def.table)
          .values(values as never)
          .returning({ id: def.id })) as Array<{ id: number }>;
      } else {
        await tx
          .update(def.table)
          .set(values as never)
          .where(eq(def.id, id));
      }
      const type = existing ? 'update' : 'create';
      const saved = await def.afterSave?.(tx, { type, id: id!, input, existing, caller, parentId });
      const identity = def.key ? (values[columnKey(def, def.key.column)] as number) : id!;
      const after = (await findRow(tx, def, caller, identity, parentId))!;
      const written = {
        type,
        id: id!,
        before: existing,
        after,
        user: caller.user,
        parentId,
        saved,
      } as WriteEvent;
      await afterWrite(tx, def, written);
      return written;
    });
  } catch (err) {
    mapDbError(err, def, 'write');
  }
  if (deps) await def.afterCommit?.(deps, event);
  return event;
}

/** Deletes the row of the path (`path`: see findRow); answers its id. */
export async function deleteRow(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  path: number,
  parentId?: number,
  deps?: Deps,
): Promise<number> {
  let event: WriteEvent;
  try {
    event = await db.transaction(async (tx) => {
      const existing = await findRow(tx, def, caller, path, parentId, true);
      if (!existing) throw notFound();
      const id = def.key ? idOf(def, existing) : path;
      for (const col of def.referencedBy ?? []) {
        if (await exists(tx, col, id)) throw new AppError(409, def.meta.messages.inUse);
      }
      await tx.delete(def.table).where(eq(def.id, id));
      const deleted: WriteEvent = {
        type: 'delete',
        id,
        before: existing,
        after: null,
        user: caller.user,
        parentId,
      };
      await afterWrite(tx, def, deleted);
      return deleted;
    });
  } catch (err) {
    mapDbError(err, def, 'delete');
  }
  if (deps) await def.afterCommit?.(deps, event);
  return event.id;
}

/**
 * A workflow beside a resource (a status change, a termination) on the row of the path, in one
 * transaction: the row locked (404 when the caller may not touch it), `step` writes, and the row
 * read back is logged as `action`, before and after, under the parent client. Answers the row after.
 */
export async function rowWorkflow<T = Row>(
  db: Db,
  def: ResourceDef,
  caller: Caller,
  clientId: number,
  id: number,
  action: ActivityAction,
  step: (tx: Tx, before: Row) => Promise<void>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const before = await findRow(tx, def, caller, id, clientId, true);
    if (!before) throw notFound();
    await step(tx, before);
    const after = (await findRow(tx, def, caller, id, clientId))!;
    await logActivity(tx, {
      userId: caller.user.id,
      clientId,
      area: def.activityArea ?? 'masters',
      action,
      entity: def.activityEntity ?? def.meta.key,
      entityId: id,
      before,
      after,
    });
    return after as T;
  });
}

/** Table name of a column, for messages and tests. */
export const tableNameOf = (col: PgColumn) => getTableConfig(col.table as PgTable).name;
