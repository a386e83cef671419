import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  firstOfMonth,
  helsinkiDay,
  isInCurrentMonthUpToToday,
  isNotAfterToday,
  paymentResource,
  supportCost,
  supportHoursResource,
  type MessageCode,
} from '@kulu/shared';
import { clientBillingPlans, clientPayments, clients, onDemandSupport } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { registerResource } from '../../lib/resource/resource.routes.js';
import type { ResourceDef, Row } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import { underClient } from './client-parent.js';

/**
 * The money sections of a client (spec §3 Client payment, On-demand support; §5), declared as
 * resources nested under their client (packages/shared `paymentResource`, `supportHoursResource`)
 * on the generic mechanism (lib/resource): provider side only (`clients.manage`), limited by the
 * Scope through the client of the path. What is their own is written here beside the
 * declarations: the day rules, which depend on today (the app's clock, in Europe/Helsinki), and
 * the support section's month totals at the client's billing plan's fee.
 */

/** A money row of the client in the path: its date, description and amount, and who added it. */
function moneyRow(
  table: typeof clientPayments | typeof onDemandSupport,
  dateKey: string,
  amountKey: string,
): Pick<ResourceDef, 'table' | 'id' | 'select' | 'parent' | 'toValues'> {
  const columns = table as unknown as Record<string, PgColumn>;
  return {
    table,
    id: table.id,
    select: {
      id: table.id,
      clientId: table.clientId,
      [dateKey]: columns[dateKey],
      description: table.description,
      [amountKey]: columns[amountKey],
      createdAt: table.createdAt,
    },
    parent: underClient(table.clientId),
    toValues: (input: Row, existing: Row | null, caller: Caller) => ({
      [dateKey]: input[dateKey],
      description: input.description,
      [amountKey]: input[amountKey],
      ...(existing ? {} : { createdBy: caller.user.id }),
    }),
  };
}

/** A day rule against today (the app's clock): refused with `code` on the date field. */
const dayRule =
  (key: string, code: MessageCode, ok: (day: string, today: string) => boolean) =>
  async (_tx: unknown, input: Row, _existing: Row | null, caller: Caller) => {
    if (!ok(input[key] as string, helsinkiDay(caller.now)))
      throw new AppError(400, code, { [key]: 'invalid' });
  };

/** Client payments: the date not in the future; the list carries the sum of every payment. */
export const paymentsDef: ResourceDef = {
  meta: paymentResource,
  ...moneyRow(clientPayments, 'paymentDate', 'amount'),
  validate: dayRule('paymentDate', 'paymentDateInFuture', isNotAfterToday),
  async totals(db, { where }) {
    const [agg] = await db
      .select({ sum: sql<string>`coalesce(sum(${clientPayments.amount}), 0)::numeric(14,2)::text` })
      .from(clientPayments)
      .where(where);
    return { totalAmount: agg.sum };
  },
  activityArea: 'payments',
  activityEntity: 'payment',
};

/**
 * On-demand support hours: a day of the current month up to today (the rule applies to the day
 * written: an entry of a past month can still be deleted, but not saved again with its old day);
 * the list carries the current month's hours and their cost at the plan's fee (null without one).
 */
export const supportHoursDef: ResourceDef = {
  meta: supportHoursResource,
  ...moneyRow(onDemandSupport, 'supportDate', 'hours'),
  validate: dayRule('supportDate', 'supportDateNotInMonth', isInCurrentMonthUpToToday),
  async totals(db, { where, caller, parentId }) {
    const today = helsinkiDay(caller.now);
    const [[agg], [plan]] = await Promise.all([
      db
        .select({
          monthHours: sql<string>`coalesce(sum(${onDemandSupport.hours}) filter (where ${onDemandSupport.supportDate} >= ${firstOfMonth(today)} and ${onDemandSupport.supportDate} <= ${today}), 0)::numeric(12,2)::text`,
        })
        .from(onDemandSupport)
        .where(where),
      db
        .select({ fee: clientBillingPlans.onDemandSupportFee })
        .from(clients)
        .innerJoin(clientBillingPlans, eq(clientBillingPlans.id, clients.billingPlanId))
        .where(eq(clients.id, parentId!)),
    ]);
    const hourlyFee = plan?.fee ?? null;
    return {
      month: today.slice(0, 7),
      monthHours: agg.monthHours,
      hourlyFee,
      monthCost: hourlyFee == null ? null : supportCost(agg.monthHours, hourlyFee),
    };
  },
  activityArea: 'support',
  activityEntity: 'supportHours',
};

/** `/api/clients/:clientId/payments` and `/api/clients/:clientId/support-hours`. */
export async function clientMoneyRoutes(app: FastifyInstance) {
  const without = ['export', 'options'] as const;
  registerResource(app, paymentsDef, {
    base: '/api/clients/:clientId/payments',
    tags: ['client payments'],
    without: [...without],
    summaries: {
      list: "A page of the client's payments (newest first) and their total amount",
      get: 'A payment',
      create: 'Add a payment: amount greater than 0, date not in the future',
      update: 'Update a payment (the same rules)',
      delete: 'Delete a payment',
    },
  });
  registerResource(app, supportHoursDef, {
    base: '/api/clients/:clientId/support-hours',
    tags: ['client on-demand support'],
    without: [...without],
    summaries: {
      list: "A page of the client's support entries (newest first), this month's hours and cost",
      get: 'A support entry',
      create: 'Add support hours: hours greater than 0, a day of the current month up to today',
      update: 'Update support hours (the same rules)',
      delete: 'Delete support hours',
    },
  });
}
