import { inArray } from 'drizzle-orm';
import { dashboardDataVersions } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';

/**
 * Dashboard answers kept in memory under the data versions they were computed at (issue 10: the
 * cost-usage API at 10,000 subscriptions × 24 months). Triggers give a client a new version from one
 * sequence whenever its facts, subscriptions, sub-companies or cost centers change, and client 0 a
 * new one when the shared cost categories change (`dashboard_data_versions`, migration 0010). A
 * request reads the two versions (one indexed lookup), and an answer computed at older versions is
 * never served: each API instance keeps its own entries, correct because the versions live in the
 * database. The entries are bounded by count and age (least recently used go first).
 *
 * The key is everything the answer depends on besides the data: the route, the client, the request's
 * filters and period, the caller's sub-company and cost-center limits and the language.
 */
const MAX_ENTRIES = 300;
const MAX_AGE_MS = 15 * 60_000;

interface Entry {
  value: unknown;
  at: number;
}

const entries = new Map<string, Entry>();
let hits = 0;
let misses = 0;

/** Both versions an answer for `clientId` depends on (0 when nothing has changed yet). */
async function versionsOf(db: Db, clientId: number): Promise<string> {
  const rows = await db
    .select({ clientId: dashboardDataVersions.clientId, version: dashboardDataVersions.version })
    .from(dashboardDataVersions)
    .where(inArray(dashboardDataVersions.clientId, [clientId, 0]));
  const of = (id: number) => rows.find((r) => r.clientId === id)?.version ?? 0;
  return `${of(clientId)}.${of(0)}`;
}

/**
 * The answer under `key` for the client's current data versions, or `compute()`'s (kept). The
 * versions are read before computing, so a kept answer is never older than its versions say.
 */
export async function cachedAnswer<T>(
  db: Db,
  clientId: number,
  key: unknown,
  compute: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const full = `${clientId}|${await versionsOf(db, clientId)}|${JSON.stringify(key)}`;
  const hit = entries.get(full);
  if (hit && now() - hit.at < MAX_AGE_MS) {
    // Most recently used last.
    entries.delete(full);
    entries.set(full, hit);
    hits++;
    return hit.value as T;
  }
  misses++;
  const value = await compute();
  entries.delete(full);
  entries.set(full, { value, at: now() });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  return value;
}

/** Counters for tests and the bench. */
export const dashboardCacheStats = () => ({ hits, misses, size: entries.size });

/** Empties the cache (the bench measures the uncached path with it). */
export function clearDashboardCache(): void {
  entries.clear();
}
