import { Column, getTableName, is, SQL, Subquery } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * What `build` makes for `key`, made once per key and kept as long as the key lives: per database
 * (its `Db`, its change clock), so that the server's and each test's get their own.
 */
export function oncePer<K extends object, T>(build: (key: K) => T): (key: K) => T {
  const made = new WeakMap<K, T>();
  return (key) => {
    let value = made.get(key);
    if (value === undefined) made.set(key, (value = build(key)));
    return value;
  };
}

/**
 * A statement prepared once per database (issue 13): `build` makes a drizzle query with
 * `sql.placeholder(...)` for its values and `.prepare(name)`, so that neither drizzle builds its SQL
 * nor PostgreSQL parses and plans it again on the hot paths that run on every request (the access
 * check, the session details).
 */
export const preparedPerDb = <T>(build: (db: Db) => T): ((db: Db) => T) => oncePer(build);

interface DriverDecoder {
  mapFromDriverValue(value: unknown): unknown;
}

interface PreparedInternals {
  fields?: { path: string[]; field: unknown }[];
  joinsNotNullableMap?: Record<string, boolean>;
  customResultMapper?: (rows: unknown[][]) => unknown;
}

type WithDecoder = { decoder: DriverDecoder };

/** The decoder drizzle's `mapResultRow` picks for a selected field (drizzle-orm/utils.js). */
function decoderOf(field: unknown): DriverDecoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as WithDecoder).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: WithDecoder } })._.sql.decoder;
  return (field as { sql: WithDecoder }).sql.decoder;
}

/**
 * Rows of a prepared statement mapped as drizzle maps them, but with each column's decoder found
 * once per statement: drizzle asks, for every column of every row, what kind of field it is
 * (`is()` walks prototype chains), which was 15 % of the API's samples on the 50-invoice list
 * (issue 13). Selections one level deep are mapped here when drizzle would never turn a nested
 * object into null (it does so for an object of a left-joined table whose columns are all null);
 * any other selection keeps drizzle's own mapping. The invoice list's test compares the two on
 * every list shape.
 */
export function withFastRows<T>(prepared: T): T {
  const q = prepared as PreparedInternals;
  const { fields, joinsNotNullableMap: notNull } = q;
  if (!fields || q.customResultMapper) return prepared;
  const nullable = (field: unknown) =>
    notNull !== undefined && is(field, Column) && !notNull[getTableName(field.table)];
  if (fields.some((f) => f.path.length > 2 || (f.path.length === 2 && nullable(f.field)))) return prepared;
  const paths = fields.map((f) => f.path);
  const decoders = fields.map((f) => decoderOf(f.field));
  q.customResultMapper = (rows) =>
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < paths.length; i++) {
        const v = row[i];
        const value = v === null ? null : decoders[i]!.mapFromDriverValue(v);
        const [a, b] = paths[i]!;
        if (b === undefined) out[a!] = value;
        else ((out[a!] ??= {}) as Record<string, unknown>)[b] = value;
      }
      return out;
    });
  return prepared;
}
