import { sql, type SQL } from 'drizzle-orm';

/**
 * A report's order: the column chosen (`sort`, else `first`), `first` largest first and any other
 * ascending unless `order` says otherwise, empty values last. The caller adds its tie-break.
 */
export function reportOrder<K extends string>(
  q: { sort?: K; order?: 'asc' | 'desc' },
  columns: Record<K, SQL>,
  first: NoInfer<K>,
): SQL {
  const sort = q.sort ?? first;
  const descending = q.order ? q.order === 'desc' : sort === first;
  const by = columns[sort];
  return descending ? sql`${by} desc nulls last` : sql`${by} asc nulls last`;
}
