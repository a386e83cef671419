import { and, asc, desc, eq, getTableColumns, ne, or, sql, type SQL } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { MasterListQuery, MasterResource, MessageCode, MasterList } from '@kulu/shared';
import type { Db, Executor, Tx } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scopeCondition } from '../../lib/scope.js';
import type { AuthUser } from '../../types.js';

/**
 * The generic service behind every master resource: list (paging, sorting, search, filters),
 * detail, create, update and delete, each write in one transaction, with duplicate and in-use
 * checks made explicitly and the database's own constraints mapped to the same answers.
 */

export type Expr = PgColumn | SQL;
export type Row = Record<string, unknown>;

export interface UniqueRule {
  /** The database unique index this rule mirrors (maps a concurrent 23505 to the same answer). */
  index: string;
  /** Answered with 409; default: the resource's `messages.duplicate`. */
  code?: MessageCode;
  /** Rows that would collide with the values `v`. */
  where: (v: Row) => SQL;
}

export interface ResourceDef {
  meta: MasterResource;
  table: PgTable;
  id: PgColumn;
  /** Entity key → the expression selected for it (joined names are scalar subqueries). */
  select: Record<string, Expr>;
  /** The option label of `/options` (default: select.name). */
  optionLabel?: Expr;
  /** Client-owned rows: the column that scopes them to the caller (lib/scope.ts). */
  clientColumn?: PgColumn;
  /** Input key → the id column of the row it must point at (checked: unknown id = invalid). */
  refs?: Record<string, PgColumn>;
  unique?: UniqueRule[];
  /** Columns of other tables that point at this resource's id: a row they use cannot be deleted. */
  referencedBy?: PgColumn[];
  /** Input → column values; `existing` is the current entity on update. */
  toValues?: (input: Row, existing: Row | null, me: AuthUser) => Row;
  /** Extra rules checked inside the write transaction; throw AppError to refuse. */
  validate?: (tx: Tx, input: Row, existing: Row | null) => Promise<void>;
  /** Runs in the delete transaction after the row is gone (e.g. remove its file). */
  afterDelete?: (tx: Tx, existing: Row) => Promise<void>;
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `(select <name> from <target> where <target.id> = <fk>)`: a joined name as a scalar subquery. */
export const nameOf = (name: PgColumn, targetId: PgColumn, fk: PgColumn) =>
  sql<string | null>`(select ${name} from ${targetId.table} where ${targetId} = ${fk})`;

const isTextColumn = (meta: MasterResource, key: string) => {
  const c = meta.columns.find((col) => col.key === key);
  return (c ? c.type === 'text' : false) || /Name$|^name$/.test(key);
};

/** The WHERE of a list, an export or an option list: tenancy, search and declared filters. */
export function listConditions(
  def: ResourceDef,
  me: AuthUser,
  query: Partial<MasterListQuery>,
): SQL | undefined {
  const conds: SQL[] = [];
  if (def.clientColumn) {
    const scope = scopeCondition(me, { clientId: def.clientColumn });
    if (scope) conds.push(scope);
  }
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
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
  const sortExpr = isTextColumn(def.meta, key) ? sql`lower(${expr})` : sql`${expr}`;
  const dir = query.order === 'desc' ? desc : asc;
  return [dir(sortExpr), dir(def.id)];
}

function selectRows(db: Executor, def: ResourceDef) {
  // The select shape is dynamic per resource; its rows are checked by the entity schema on the way out.
  return db.select(def.select as Record<string, PgColumn>).from(def.table as PgTable);
}

export async function listRows(
  db: Db,
  def: ResourceDef,
  me: AuthUser,
  query: MasterListQuery,
): Promise<MasterList<Row>> {
  const where = listConditions(def, me, query);
  const [items, [{ n }]] = await Promise.all([
    selectRows(db, def)
      .where(where)
      .orderBy(...orderOf(def, query))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(def.table as PgTable)
      .where(where),
  ]);
  return { items, total: Number(n), page: query.page, pageSize: query.pageSize };
}

/** Every row of the current list (no paging), in batches, for the export. */
export async function* allRows(
  db: Db,
  def: ResourceDef,
  me: AuthUser,
  query: Partial<MasterListQuery>,
  batch = 1000,
): AsyncGenerator<Row[]> {
  const where = listConditions(def, me, query);
  for (let offset = 0; ; offset += batch) {
    const rows = await selectRows(db, def)
      .where(where)
      .orderBy(...orderOf(def, query))
      .limit(batch)
      .offset(offset);
    if (rows.length) yield rows;
    if (rows.length < batch) return;
  }
}

export async function optionRows(db: Db, def: ResourceDef, me: AuthUser, query: Partial<MasterListQuery>) {
  const label = def.optionLabel ?? def.select.name;
  return db
    .select({ id: sql<number>`${def.id}`, name: sql<string>`${label}` })
    .from(def.table as PgTable)
    .where(listConditions(def, me, query))
    .orderBy(sql`lower(${label})`, def.id)
    .limit(1000);
}

async function findRow(db: Executor, def: ResourceDef, me: AuthUser, id: number): Promise<Row | null> {
  const scope = def.clientColumn ? scopeCondition(me, { clientId: def.clientColumn }) : undefined;
  const [row] = await selectRows(db, def).where(and(eq(def.id, id), scope));
  return row ?? null;
}

export async function getRow<T = Row>(db: Db, def: ResourceDef, me: AuthUser, id: number): Promise<T> {
  const row = await findRow(db, def, me, id);
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

async function checkWrite(
  tx: Tx,
  def: ResourceDef,
  values: Row,
  input: Row,
  existing: Row | null,
  id?: number,
) {
  const invalid: Record<string, string> = {};
  for (const [key, col] of Object.entries(def.refs ?? {})) {
    const v = input[key];
    if (v === null || v === undefined) continue;
    const [hit] = await tx
      .execute(sql`select 1 as hit from ${col.table} where ${col} = ${v} limit 1`)
      .then(rowsOf);
    if (!hit) invalid[key] = 'invalid';
  }
  if (Object.keys(invalid).length) throw new AppError(400, 'validation', invalid);
  await def.validate?.(tx, input, existing);
  for (const rule of def.unique ?? []) {
    const [dup] = await tx
      .select({ id: def.id })
      .from(def.table as PgTable)
      .where(and(rule.where(values), id === undefined ? undefined : ne(def.id, id)))
      .limit(1);
    if (dup) throw new AppError(409, rule.code ?? def.meta.messages.duplicate);
  }
}

/** `tx.execute` answers `{ rows }` on node-postgres and PGlite alike. */
const rowsOf = (res: unknown): Row[] => ((res as { rows?: Row[] }).rows ?? (res as Row[])) as Row[];

const defaultValues = (def: ResourceDef, input: Row): Row => {
  const columns = getTableColumns(def.table);
  return Object.fromEntries(Object.entries(input).filter(([k]) => k in columns));
};

export async function createRow(db: Db, def: ResourceDef, me: AuthUser, input: Row): Promise<Row> {
  try {
    return await db.transaction(async (tx) => {
      const values = def.toValues ? def.toValues(input, null, me) : defaultValues(def, input);
      await checkWrite(tx, def, values, input, null);
      const [{ id }] = await tx
        .insert(def.table)
        .values(values as never)
        .returning({ id: def.id });
      return (await findRow(tx, def, me, id as number))!;
    });
  } catch (err) {
    mapDbError(err, def, 'write');
  }
}

export async function updateRow(
  db: Db,
  def: ResourceDef,
  me: AuthUser,
  id: number,
  input: Row,
): Promise<Row> {
  try {
    return await db.transaction(async (tx) => {
      const existing = await findRow(tx, def, me, id);
      if (!existing) throw notFound();
      const values = def.toValues ? def.toValues(input, existing, me) : defaultValues(def, input);
      await checkWrite(tx, def, values, input, existing, id);
      await tx
        .update(def.table)
        .set(values as never)
        .where(eq(def.id, id));
      return (await findRow(tx, def, me, id))!;
    });
  } catch (err) {
    mapDbError(err, def, 'write');
  }
}

export async function deleteRow(db: Db, def: ResourceDef, me: AuthUser, id: number): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      const existing = await findRow(tx, def, me, id);
      if (!existing) throw notFound();
      for (const col of def.referencedBy ?? []) {
        const [hit] = await tx
          .execute(sql`select 1 as hit from ${col.table} where ${col} = ${id} limit 1`)
          .then(rowsOf);
        if (hit) throw new AppError(409, def.meta.messages.inUse);
      }
      await tx.delete(def.table).where(eq(def.id, id));
      await def.afterDelete?.(tx, existing);
    });
  } catch (err) {
    mapDbError(err, def, 'delete');
  }
}

/** Table name of a column, for messages and tests. */
export const tableNameOf = (col: PgColumn) => getTableConfig(col.table as PgTable).name;
