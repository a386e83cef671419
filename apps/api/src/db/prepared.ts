import type { Db } from './client.js';

/**
 * A statement prepared once per database (issue 13): `build` makes a drizzle query with
 * `sql.placeholder(...)` for its values and `.prepare(name)`, so that neither drizzle builds its SQL
 * nor PostgreSQL parses and plans it again on the hot paths that run on every request (the access
 * check, the session details). Each database (the server's, a test's) gets its own.
 */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let q = made.get(db);
    if (q === undefined) made.set(db, (q = build(db)));
    return q;
  };
}
