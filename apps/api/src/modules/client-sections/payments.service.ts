import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  isNotAfterToday,
  helsinkiDay,
  type Payment,
  type PaymentInput,
  type PaymentList,
  type PaymentListQuery,
} from '@kulu/shared';
import { clientPayments } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Caller } from '../../lib/resource/resource.service.js';
import { isoTime as iso } from '../../lib/db-values.js';

/**
 * Client payments (spec §3 Client payment: payment date, description, amount; §5 amount greater
 * than 0, date not in the future). The amount rule is the shared schema's (and a database check);
 * "not in the future" depends on today, so it is checked here against the app's clock.
 */

const AREA = 'payments';

type PaymentRow = typeof clientPayments.$inferSelect;

const toPayment = (r: PaymentRow): Payment => ({
  id: r.id,
  clientId: r.clientId,
  paymentDate: r.paymentDate,
  description: r.description,
  amount: r.amount,
  createdAt: iso(r.createdAt),
});

const SORT_COLUMNS = {
  paymentDate: clientPayments.paymentDate,
  amount: clientPayments.amount,
  id: clientPayments.id,
} as const;

/** A page of the client's payments (newest first by default) and the sum of all of them. */
export async function listPayments(
  db: Db,
  me: Caller,
  clientId: number,
  q: PaymentListQuery,
): Promise<PaymentList> {
  await me.scope.assertClient(clientId);
  const where = eq(clientPayments.clientId, clientId);
  const dir = q.sort ? (q.order === 'desc' ? desc : asc) : desc;
  const col = SORT_COLUMNS[q.sort ?? 'paymentDate'];
  const rows = await db
    .select()
    .from(clientPayments)
    .where(where)
    .orderBy(dir(col), dir(clientPayments.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [agg] = await db
    .select({
      total: sql<number>`count(*)::int`,
      sum: sql<string>`coalesce(sum(${clientPayments.amount}), 0)::numeric(14,2)::text`,
    })
    .from(clientPayments)
    .where(where);
  return {
    items: rows.map(toPayment),
    total: agg.total,
    page: q.page,
    pageSize: q.pageSize,
    totalAmount: agg.sum,
  };
}

async function onePayment(db: Executor, clientId: number, id: number, lock = false): Promise<PaymentRow> {
  const base = db
    .select()
    .from(clientPayments)
    .where(and(eq(clientPayments.id, id), eq(clientPayments.clientId, clientId)));
  const [row] = lock ? await base.for('update') : await base;
  if (!row) throw notFound();
  return row;
}

export async function getPayment(db: Db, me: Caller, clientId: number, id: number): Promise<Payment> {
  await me.scope.assertClient(clientId);
  return toPayment(await onePayment(db, clientId, id));
}

/** Spec §5: the payment date is not in the future (today by the app's clock is allowed). */
function assertDate(input: PaymentInput, now: Date) {
  if (!isNotAfterToday(input.paymentDate, helsinkiDay(now))) {
    throw new AppError(400, 'paymentDateInFuture', { paymentDate: 'invalid' });
  }
}

export async function createPayment(
  db: Db,
  me: Caller,
  clientId: number,
  input: PaymentInput,
  now: Date,
): Promise<Payment> {
  await me.scope.assertClient(clientId);
  assertDate(input, now);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(clientPayments)
      .values({
        clientId,
        paymentDate: input.paymentDate,
        description: input.description,
        amount: input.amount,
        createdBy: me.user.id,
      })
      .returning();
    const after = toPayment(row);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'create',
      entity: 'payment',
      entityId: row.id,
      after,
    });
    return after;
  });
}

export async function updatePayment(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  input: PaymentInput,
  now: Date,
): Promise<Payment> {
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    const before = toPayment(await onePayment(tx, clientId, id, true));
    assertDate(input, now);
    const [row] = await tx
      .update(clientPayments)
      .set({ paymentDate: input.paymentDate, description: input.description, amount: input.amount })
      .where(eq(clientPayments.id, id))
      .returning();
    const after = toPayment(row);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'update',
      entity: 'payment',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

export async function deletePayment(db: Db, me: Caller, clientId: number, id: number): Promise<void> {
  await me.scope.assertClient(clientId);
  await db.transaction(async (tx) => {
    const before = toPayment(await onePayment(tx, clientId, id, true));
    await tx.delete(clientPayments).where(eq(clientPayments.id, id));
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'delete',
      entity: 'payment',
      entityId: id,
      before,
    });
  });
}
