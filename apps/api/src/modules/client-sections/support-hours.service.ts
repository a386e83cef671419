import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  firstOfMonth,
  isInCurrentMonthUpToToday,
  supportCost,
  helsinkiDay,
  type SupportHours,
  type SupportHoursInput,
  type SupportHoursList,
  type SupportHoursListQuery,
} from '@kulu/shared';
import { clientBillingPlans, clients, onDemandSupport } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Caller } from '../../lib/resource/resource.service.js';
import { isoTime as iso } from '../../lib/db-values.js';

/**
 * On-demand support hours (spec §3 On-demand support: date, description, hours; §5 hours greater
 * than 0, date within the current month and not after today). The hours rule is the shared
 * schema's (and a database check); the day rule depends on today, so it is checked here against
 * the app's clock. The rule applies to the day written: an entry of a past month can still be
 * deleted, but not saved again with its old day.
 */

const AREA = 'support';

type SupportRow = typeof onDemandSupport.$inferSelect;

const toSupportHours = (r: SupportRow): SupportHours => ({
  id: r.id,
  clientId: r.clientId,
  supportDate: r.supportDate,
  description: r.description,
  hours: r.hours,
  createdAt: iso(r.createdAt),
});

const SORT_COLUMNS = {
  supportDate: onDemandSupport.supportDate,
  hours: onDemandSupport.hours,
  id: onDemandSupport.id,
} as const;

/**
 * A page of the client's support entries (newest first by default), and the current month's total
 * hours with their cost at the client's billing plan's on-demand support fee per hour.
 */
export async function listSupportHours(
  db: Db,
  me: Caller,
  clientId: number,
  q: SupportHoursListQuery,
  now: Date,
): Promise<SupportHoursList> {
  await me.scope.assertClient(clientId);
  const where = eq(onDemandSupport.clientId, clientId);
  const dir = q.sort ? (q.order === 'desc' ? desc : asc) : desc;
  const col = SORT_COLUMNS[q.sort ?? 'supportDate'];
  const rows = await db
    .select()
    .from(onDemandSupport)
    .where(where)
    .orderBy(dir(col), dir(onDemandSupport.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const today = helsinkiDay(now);
  const [agg] = await db
    .select({
      total: sql<number>`count(*)::int`,
      monthHours: sql<string>`coalesce(sum(${onDemandSupport.hours}) filter (where ${onDemandSupport.supportDate} >= ${firstOfMonth(today)} and ${onDemandSupport.supportDate} <= ${today}), 0)::numeric(12,2)::text`,
    })
    .from(onDemandSupport)
    .where(where);
  const [plan] = await db
    .select({ fee: clientBillingPlans.onDemandSupportFee })
    .from(clients)
    .innerJoin(clientBillingPlans, eq(clientBillingPlans.id, clients.billingPlanId))
    .where(eq(clients.id, clientId));
  const hourlyFee = plan?.fee ?? null;
  return {
    items: rows.map(toSupportHours),
    total: agg.total,
    page: q.page,
    pageSize: q.pageSize,
    month: today.slice(0, 7),
    monthHours: agg.monthHours,
    hourlyFee,
    monthCost: hourlyFee == null ? null : supportCost(agg.monthHours, hourlyFee),
  };
}

async function oneSupportHours(
  db: Executor,
  clientId: number,
  id: number,
  lock = false,
): Promise<SupportRow> {
  const base = db
    .select()
    .from(onDemandSupport)
    .where(and(eq(onDemandSupport.id, id), eq(onDemandSupport.clientId, clientId)));
  const [row] = lock ? await base.for('update') : await base;
  if (!row) throw notFound();
  return row;
}

export async function getSupportHours(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
): Promise<SupportHours> {
  await me.scope.assertClient(clientId);
  return toSupportHours(await oneSupportHours(db, clientId, id));
}

/** Spec §5: the day lies in the current month and not after today (by the app's clock). */
function assertDate(input: SupportHoursInput, now: Date) {
  if (!isInCurrentMonthUpToToday(input.supportDate, helsinkiDay(now))) {
    throw new AppError(400, 'supportDateNotInMonth', { supportDate: 'invalid' });
  }
}

export async function createSupportHours(
  db: Db,
  me: Caller,
  clientId: number,
  input: SupportHoursInput,
  now: Date,
): Promise<SupportHours> {
  await me.scope.assertClient(clientId);
  assertDate(input, now);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(onDemandSupport)
      .values({
        clientId,
        supportDate: input.supportDate,
        description: input.description,
        hours: input.hours,
        createdBy: me.user.id,
      })
      .returning();
    const after = toSupportHours(row);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'create',
      entity: 'supportHours',
      entityId: row.id,
      after,
    });
    return after;
  });
}

export async function updateSupportHours(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  input: SupportHoursInput,
  now: Date,
): Promise<SupportHours> {
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    const before = toSupportHours(await oneSupportHours(tx, clientId, id, true));
    assertDate(input, now);
    const [row] = await tx
      .update(onDemandSupport)
      .set({ supportDate: input.supportDate, description: input.description, hours: input.hours })
      .where(eq(onDemandSupport.id, id))
      .returning();
    const after = toSupportHours(row);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'update',
      entity: 'supportHours',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

export async function deleteSupportHours(db: Db, me: Caller, clientId: number, id: number): Promise<void> {
  await me.scope.assertClient(clientId);
  await db.transaction(async (tx) => {
    const before = toSupportHours(await oneSupportHours(tx, clientId, id, true));
    await tx.delete(onDemandSupport).where(eq(onDemandSupport.id, id));
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'delete',
      entity: 'supportHours',
      entityId: id,
      before,
    });
  });
}
