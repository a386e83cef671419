import { and, asc, eq, ilike, inArray, or, sql, type SQLWrapper } from 'drizzle-orm';
import type { OverchargedList, OverchargedQuery } from '@kulu/shared';
import {
  costCategories,
  plans,
  subscriptionCategoryMonthCost,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { resolveSlice } from './dashboards.service.js';
import { euros } from './money.js';
import { reportOrder } from './report-order.js';

/**
 * Overcharged Plans, the invoice audit (spec §2 reports, issue 12): each subscription-month of the
 * period whose monthly fees (cost categories of usage type monthly fee) came to more than the price
 * of the plan the subscription is on, for this client: its contract price where it has one, else
 * the list price. The difference is what to claim back; the largest first. Read through the
 * dashboards' client, period and Scope (`resolveSlice`). The plan compared is the subscription's
 * current one (a month billed before a plan change is compared with the new plan).
 */
export async function overchargedPlans(db: Db, scope: Scope, q: OverchargedQuery): Promise<OverchargedList> {
  const slice = await resolveSlice(db, scope, q);
  const t = subscriptionCategoryMonthCost;
  const fees = db
    .select({
      subscriptionId: sql<number>`${t.subscriptionId}`.as('fee_subscription_id'),
      month: sql<string>`${t.month}`.as('fee_month'),
      billed: sql<number>`sum(${t.cents})::bigint`.as('fee_billed'),
    })
    .from(t)
    .where(
      and(
        slice.inPeriod(t),
        inArray(
          t.costCategoryId,
          db
            .select({ id: costCategories.id })
            .from(costCategories)
            .where(eq(costCategories.usageType, 'monthly_fee')),
        ),
      ),
    )
    .groupBy(t.subscriptionId, t.month)
    .as('fees');
  const expected = sql<number>`round(coalesce(${plans.contractPrice}, ${plans.listPrice}) * 100)::bigint`;
  const difference = sql<number>`(${fees.billed} - ${expected})`;
  const search = q.q
    ? or(
        ilike(subscriptions.phoneNumber, containsPattern(q.q)),
        ilike(subscriptions.userName, containsPattern(q.q)),
      )
    : undefined;
  const where = and(sql`${difference} > 0`, search);
  const rows = await db
    .select({
      subscriptionId: fees.subscriptionId,
      phoneNumber: subscriptions.phoneNumber,
      userName: subscriptions.userName,
      month: sql<string>`to_char(${fees.month}, 'YYYY-MM')`,
      planName: plans.name,
      expected: sql<string>`${expected}::text`,
      billed: sql<string>`${fees.billed}::text`,
      total: sql<number>`(count(*) over ())::int`,
      totalExpected: sql<string>`(sum(${expected}) over ())::text`,
      totalBilled: sql<string>`(sum(${fees.billed}) over ())::text`,
    })
    .from(fees)
    .innerJoin(subscriptions, eq(subscriptions.id, fees.subscriptionId))
    .innerJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .where(where)
    .orderBy(overchargedOrder(q, difference, fees.month), asc(fees.month), asc(fees.subscriptionId))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const first = rows[0];
  let totals = {
    lines: first?.total ?? 0,
    expected: Number(first?.totalExpected ?? 0),
    billed: Number(first?.totalBilled ?? 0),
  };
  if (!rows.length && q.page > 1) {
    const [all] = await db
      .select({
        n: sql<number>`count(*)::int`,
        e: sql<string>`coalesce(sum(${expected}), 0)::text`,
        b: sql<string>`coalesce(sum(${fees.billed}), 0)::text`,
      })
      .from(fees)
      .innerJoin(subscriptions, eq(subscriptions.id, fees.subscriptionId))
      .innerJoin(plans, eq(plans.id, subscriptions.currentPlanId))
      .where(where);
    totals = { lines: all?.n ?? 0, expected: Number(all?.e ?? 0), billed: Number(all?.b ?? 0) };
  }
  return {
    clientId: slice.clientId,
    from: slice.from,
    to: slice.to,
    items: rows.map((r) => ({
      subscriptionId: r.subscriptionId,
      phoneNumber: r.phoneNumber,
      userName: r.userName,
      month: r.month,
      planName: r.planName,
      expected: euros(Number(r.expected)),
      billed: euros(Number(r.billed)),
      difference: euros(Number(r.billed) - Number(r.expected)),
    })),
    total: totals.lines,
    totals: {
      lines: totals.lines,
      expected: euros(totals.expected),
      billed: euros(totals.billed),
      overcharge: euros(totals.billed - totals.expected),
    },
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** The report's order: the chosen column (the difference by default, largest first). */
function overchargedOrder(q: OverchargedQuery, difference: SQLWrapper, month: SQLWrapper) {
  const columns = {
    difference: sql`${difference}`,
    month: sql`${month}`,
    userName: sql`lower(${subscriptions.userName})`,
    phoneNumber: sql`${subscriptions.phoneNumber}`,
    planName: sql`lower(${plans.name})`,
  };
  return reportOrder(q, columns, 'difference');
}
