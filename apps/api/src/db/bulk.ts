import { getTableColumns, getTableName, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

/**
 * Many rows in one statement, one bound array per column (`unnest($1::integer[], $2::text[], …)`):
 * a row per element, whatever the number of rows, so no statement comes near PostgreSQL's 65,535
 * bind parameters, the statement text is the same for any number of rows (the named statements of
 * db/named-statements.ts keep its plan), and the driver serializes one array per column instead of
 * drizzle building a placeholder per value. Issue 24: a 2,000-subscription invoice imported with a
 * statement per subscription or per 500 rows took 5–8 s (decision 0020 has the figures).
 *
 * Values go through the column's own mapping (a Date to its ISO text, JSON to text), as drizzle's
 * insert does; `undefined` is written as null (the columns named here have no default to fall back to).
 */
export const BULK_ROWS = 10_000;

type Row<T extends PgTable> = T['$inferInsert'];
type Key<T extends PgTable> = keyof Row<T> & string;
/** What `db.execute` gives on both drivers (node-postgres and PGlite). */
type Executor = { execute(query: SQL): PromiseLike<unknown> };

function columnsOf<T extends PgTable>(table: T, keys: readonly Key<T>[]): PgColumn[] {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  return keys.map((k) => {
    const c = all[k];
    if (!c) throw new Error(`bulk: ${getTableName(table)} has no column ${k}`);
    return c;
  });
}

const arrayType = (c: PgColumn) => {
  const t = c.getSQLType();
  return `${t === 'serial' ? 'integer' : t === 'bigserial' ? 'bigint' : t}[]`;
};

/** `unnest(…) as alias(col, …)` of the rows' values of `keys`. */
function unnestOf<T extends PgTable>(
  table: T,
  keys: readonly Key<T>[],
  rows: ReadonlyArray<Partial<Row<T>>>,
  alias: string,
): SQL {
  const cols = columnsOf(table, keys);
  const arrays = cols.map((c, i) => {
    const values = rows.map((r) => {
      const v = (r as Record<string, unknown>)[keys[i]];
      return v == null ? null : c.mapToDriverValue(v);
    });
    return sql`${sql.param(values)}::${sql.raw(arrayType(c))}`;
  });
  return sql`unnest(${sql.join(arrays, sql`, `)}) as ${sql.identifier(alias)}(${sql.join(
    cols.map((c) => sql.identifier(c.name)),
    sql`, `,
  )})`;
}

const rowsOf = <R>(result: unknown): R[] => (result as { rows: R[] }).rows;

/**
 * Inserts `rows` (columns `keys`), `BULK_ROWS` a statement; with `returning` (raw SQL column list,
 * e.g. `sql\`id, phone_number as "phoneNumber"\``), the inserted rows' values in no particular order.
 */
export async function insertRows<T extends PgTable, R = never>(
  db: Executor,
  table: T,
  keys: readonly Key<T>[],
  rows: ReadonlyArray<Row<T>>,
  returning?: SQL,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += BULK_ROWS) {
    const chunk = rows.slice(i, i + BULK_ROWS);
    const result = await db.execute(
      sql`insert into ${table} (${sql.join(
        columnsOf(table, keys).map((c) => sql.identifier(c.name)),
        sql`, `,
      )}) select * from ${unnestOf(table, keys, chunk, 'v')}${returning ? sql` returning ${returning}` : sql``}`,
    );
    if (returning) out.push(...rowsOf<R>(result));
  }
  return out;
}

/**
 * Updates rows by `by` (the first key, e.g. `id`): each row's other `keys` are set to its values
 * (`update t set a = v.a, … from unnest(…) v where t.id = v.id`), `BULK_ROWS` a statement. A key
 * value appearing twice updates its row once, with one of them: pass each row once.
 */
export async function updateRows<T extends PgTable, R = never>(
  db: Executor,
  table: T,
  keys: readonly [Key<T>, ...Key<T>[]],
  rows: ReadonlyArray<Partial<Row<T>>>,
  returning?: SQL,
): Promise<R[]> {
  const [by, ...set] = columnsOf(table, keys);
  const out: R[] = [];
  for (let i = 0; i < rows.length; i += BULK_ROWS) {
    const chunk = rows.slice(i, i + BULK_ROWS);
    const result = await db.execute(
      sql`update ${table} set ${sql.join(
        set.map((c) => sql`${sql.identifier(c.name)} = ${sql.identifier('v')}.${sql.identifier(c.name)}`),
        sql`, `,
      )} from ${unnestOf(table, keys, chunk, 'v')} where ${table}.${sql.identifier(by.name)} = ${sql.identifier(
        'v',
      )}.${sql.identifier(by.name)}${returning ? sql` returning ${returning}` : sql``}`,
    );
    if (returning) out.push(...rowsOf<R>(result));
  }
  return out;
}
