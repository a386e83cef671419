import {
  and,
  asc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNotNull,
  lte,
  notInArray,
  or,
  sql,
  type SQLWrapper,
} from 'drizzle-orm';
import type { UnusedSubscriptionsList, UnusedSubscriptionsQuery } from '@kulu/shared';
import {
  clients,
  costCategories,
  costCenters,
  monthlyFacts,
  plans,
  subCompanies,
  subscriptionMonthCost,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { addMonths, resolveSlice } from './dashboards.service.js';
import { euros } from './money.js';
import { reportOrder } from './report-order.js';

/**
 * Unused Subscriptions (spec §2 "Unused-Month-Count", issue 12): the subscriptions billed in each
 * of the last N months with costs (N chosen, else the client's Unused Month Count) that had no
 * voice minutes, messages or data in any of them; the most expensive first, with what they cost
 * meanwhile and a month on average. Read through the request's Scope like the dashboards (the
 * same client, sub-company and cost-center checks).
 */
export async function unusedSubscriptions(
  db: Db,
  scope: Scope,
  q: UnusedSubscriptionsQuery,
): Promise<UnusedSubscriptionsList> {
  const slice = await resolveSlice(db, scope, {
    clientId: q.clientId,
    subCompanyId: q.subCompanyId,
    costCenterId: q.costCenterId,
    to: q.to,
  });
  const [client] = await db
    .select({ unusedMonthCount: clients.unusedMonthCount })
    .from(clients)
    .where(eq(clients.id, slice.clientId));
  const months = q.months ?? client?.unusedMonthCount ?? 3;
  // The slice's `to` is the month chosen, else the latest month with costs (or the current month
  // without any).
  const to = slice.to;
  const from = addMonths(to, -(months - 1));
  const smc = subscriptionMonthCost;
  const inWindow = (col: typeof smc.month | typeof monthlyFacts.month) =>
    and(gte(col, `${from}-01`), lte(col, `${to}-01`));

  const messageCategories = db
    .select({ id: costCategories.id })
    .from(costCategories)
    .where(inArray(costCategories.usageType, ['sms', 'mms']));
  const used = db
    .selectDistinct({ id: monthlyFacts.subscriptionId })
    .from(monthlyFacts)
    .where(
      and(
        slice.where(monthlyFacts),
        inWindow(monthlyFacts.month),
        isNotNull(monthlyFacts.subscriptionId),
        gt(monthlyFacts.quantity, '0'),
        // Use: minutes, data, or messages (pieces of an SMS / MMS category; a monthly fee is a piece too).
        or(
          inArray(monthlyFacts.unit, ['min', 'mb']),
          and(eq(monthlyFacts.unit, 'pcs'), inArray(monthlyFacts.costCategoryId, messageCategories)),
        ),
      ),
    );
  const billed = db
    .select({
      id: sql<number>`${smc.subscriptionId}`.as('billed_id'),
      cents: sql<number>`sum(${smc.cents})::bigint`.as('billed_cents'),
    })
    .from(smc)
    .where(and(slice.where(smc), inWindow(smc.month), notInArray(smc.subscriptionId, used)))
    .groupBy(smc.subscriptionId)
    .having(sql`count(distinct ${smc.month}) = ${months}`)
    .as('billed');
  const search = q.q
    ? or(
        ilike(subscriptions.phoneNumber, containsPattern(q.q)),
        ilike(subscriptions.userName, containsPattern(q.q)),
      )
    : undefined;
  const rows = await db
    .select({
      subscriptionId: billed.id,
      phoneNumber: subscriptions.phoneNumber,
      userName: subscriptions.userName,
      subCompanyName: subCompanies.name,
      costCenterName: costCenters.name,
      planName: plans.name,
      cents: sql<string>`${billed.cents}::text`,
      total: sql<number>`(count(*) over ())::int`,
      totalCents: sql<string>`(sum(${billed.cents}) over ())::text`,
    })
    .from(billed)
    .innerJoin(subscriptions, eq(subscriptions.id, billed.id))
    .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
    .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .where(search)
    .orderBy(unusedOrder(q, billed.cents), asc(billed.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);

  let total = rows[0]?.total ?? 0;
  let totalCents = Number(rows[0]?.totalCents ?? 0);
  if (!rows.length && q.page > 1) {
    // Past the last page: the count and sum still say what there is.
    const [all] = await db
      .select({ n: sql<number>`count(*)::int`, c: sql<string>`coalesce(sum(${billed.cents}), 0)::text` })
      .from(billed)
      .innerJoin(subscriptions, eq(subscriptions.id, billed.id))
      .where(search);
    total = all?.n ?? 0;
    totalCents = Number(all?.c ?? 0);
  }
  return {
    clientId: slice.clientId,
    months,
    from,
    to,
    items: rows.map((r) => ({
      subscriptionId: r.subscriptionId,
      phoneNumber: r.phoneNumber,
      userName: r.userName,
      subCompanyName: r.subCompanyName,
      costCenterName: r.costCenterName,
      planName: r.planName,
      cost: euros(Number(r.cents)),
      monthlyCost: euros(Math.round(Number(r.cents) / months)),
    })),
    total,
    totals: {
      subscriptions: total,
      cost: euros(totalCents),
      yearlySaving: euros(Math.round((totalCents / months) * 12)),
    },
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** The report's order: the chosen column (cost by default, most first), then a stable tie-break. */
function unusedOrder(q: UnusedSubscriptionsQuery, cents: SQLWrapper) {
  const columns = {
    cost: sql`${cents}`,
    userName: sql`lower(${subscriptions.userName})`,
    phoneNumber: sql`${subscriptions.phoneNumber}`,
    planName: sql`lower(${plans.name})`,
  };
  return reportOrder(q, columns, 'cost');
}
