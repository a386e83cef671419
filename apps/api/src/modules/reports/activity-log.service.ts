import { and, asc, desc, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  addDays,
  helsinkiDayStart,
  type ActivityLogEntry,
  type ActivityLogList,
  type ActivityLogOptions,
  type ActivityLogQuery,
} from '@kulu/shared';
import { activityLog, clients, users } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';

/**
 * The Activity Log report (issue 12, admin only): who changed what and when, with the row before
 * and after, filtered by user, client, area and days, sorted and paged. The rows are written by
 * `lib/activity-log.ts` in the transaction of each change.
 */

const SORT: Record<NonNullable<ActivityLogQuery['sort']>, SQL> = {
  at: sql`${activityLog.at}`,
  user: sql`lower(${users.fullName})`,
  client: sql`lower(${clients.companyName})`,
  area: sql`${activityLog.area}`,
  action: sql`${activityLog.action}`,
};

/** The entries of the filters within the caller's Scope (an entry is its client's; none: the provider's). */
const whereOf = (scope: Scope, q: ActivityLogFilters) =>
  and(
    scope.where({ clientId: activityLog.clientId }),
    q.userId != null ? eq(activityLog.userId, q.userId) : undefined,
    q.clientId != null ? eq(activityLog.clientId, q.clientId) : undefined,
    q.area ? eq(activityLog.area, q.area) : undefined,
    q.from ? gte(activityLog.at, helsinkiDayStart(q.from)) : undefined,
    q.to ? lt(activityLog.at, helsinkiDayStart(addDays(q.to, 1))) : undefined,
  );

export type ActivityLogFilters = Pick<ActivityLogQuery, 'userId' | 'clientId' | 'area' | 'from' | 'to'>;

const COLUMNS = {
  id: activityLog.id,
  at: activityLog.at,
  userId: activityLog.userId,
  userName: users.fullName,
  userEmail: users.email,
  clientId: activityLog.clientId,
  clientName: clients.companyName,
  area: activityLog.area,
  action: activityLog.action,
  entity: activityLog.entity,
  entityId: activityLog.entityId,
  before: activityLog.before,
  after: activityLog.after,
};

type Row = { [K in keyof typeof COLUMNS]: unknown } & { at: Date | string };

/** Bookkeeping a reader of the log has no use for: ids and the row's own timestamps. */
const isTechnical = (field: string) => field === 'id' || /(Id|Ids|At)$/.test(field);

/** A row as the log shows it: its technical fields left out (issue 22). */
export function withoutTechnicalFields(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !isTechnical(k)));
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/**
 * What the entry is about, in words (issue 22: not `contract #3`): a person's name and email, a
 * contract's client and period, a subscription's number and user, else the row's name, title or
 * number; null when the row says none of these.
 */
export function entityLabel(row: unknown, clientName: string | null): string | null {
  if (!row || typeof row !== 'object') return null;
  const r = row as Record<string, unknown>;
  const email = text(r.email);
  const person = text(r.fullName) ?? text(r.userName) ?? (email ? text(r.name) : null);
  if (text(r.startDate) && 'endDate' in r) {
    const period = `${text(r.startDate)} – ${text(r.endDate) ?? '…'}`;
    return clientName ? `${clientName}, ${period}` : period;
  }
  if (text(r.phoneNumber)) return [text(r.phoneNumber), person].filter(Boolean).join(' · ');
  if (person || email) return person && email ? `${person} <${email}>` : (person ?? email);
  return (
    text(r.name) ??
    text(r.companyName) ??
    text(r.title) ??
    text(r.invoiceNumber) ??
    text(r.fileName) ??
    text(r.code) ??
    null
  );
}

const entryOf = (r: Row): ActivityLogEntry => {
  const e = r as ActivityLogEntry;
  return {
    ...e,
    at: new Date(r.at).toISOString(),
    entityLabel: entityLabel(e.after ?? e.before, e.clientName),
    before: withoutTechnicalFields(e.before),
    after: withoutTechnicalFields(e.after),
  };
};

function base(db: Db) {
  return db
    .select(COLUMNS)
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.userId))
    .leftJoin(clients, eq(clients.id, activityLog.clientId));
}

export async function activityLogReport(db: Db, scope: Scope, q: ActivityLogQuery): Promise<ActivityLogList> {
  const where = whereOf(scope, q);
  // Without a sort: newest first (the export's order); with one, its order.
  const dir = q.sort && q.order === 'asc' ? asc : desc;
  const rows = await base(db)
    .where(where)
    .orderBy(dir(SORT[q.sort ?? 'at']), dir(activityLog.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [totals] = await db
    .select({
      entries: sql<number>`count(*)::int`,
      users: sql<number>`count(distinct ${activityLog.userId})::int`,
      clients: sql<number>`count(distinct ${activityLog.clientId})::int`,
    })
    .from(activityLog)
    .where(where);
  return {
    items: rows.map((r) => entryOf(r as Row)),
    total: totals.entries,
    totals,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Every entry of the filters, newest first, in batches (the export). */
export async function* activityLogBatches(db: Db, scope: Scope, q: ActivityLogFilters, size = 1000) {
  const where = whereOf(scope, q);
  for (let offset = 0; ; offset += size) {
    const rows = await base(db)
      .where(where)
      .orderBy(desc(activityLog.at), desc(activityLog.id))
      .limit(size)
      .offset(offset);
    if (!rows.length) return;
    yield rows.map((r) => entryOf(r as Row));
    if (rows.length < size) return;
  }
}

/** The filters' choices: the users, clients and areas of the entries within the caller's Scope. */
export async function activityLogOptions(db: Db, scope: Scope): Promise<ActivityLogOptions> {
  const inScope = scope.where({ clientId: activityLog.clientId });
  const [who, which, areas] = await Promise.all([
    db
      .selectDistinct({ id: users.id, name: users.fullName, email: users.email })
      .from(activityLog)
      .innerJoin(users, eq(users.id, activityLog.userId))
      .where(inScope)
      .orderBy(users.fullName, users.id),
    db
      .selectDistinct({ id: clients.id, name: clients.companyName })
      .from(activityLog)
      .innerJoin(clients, eq(clients.id, activityLog.clientId))
      .where(and(isNotNull(activityLog.clientId), inScope))
      .orderBy(clients.companyName, clients.id),
    db.selectDistinct({ area: activityLog.area }).from(activityLog).where(inScope).orderBy(activityLog.area),
  ]);
  return { users: who, clients: which, areas: areas.map((a) => a.area) };
}
