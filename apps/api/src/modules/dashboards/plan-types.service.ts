import { eq, sql } from 'drizzle-orm';
import type { PlanTypesList, PlanTypesQuery } from '@kulu/shared';
import {
  basePlanGroups,
  planGroups,
  plans,
  subscriptionMonthCost,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { costTotals, resolveSlice } from './dashboards.service.js';
import { euros } from './money.js';

/**
 * Base Plan Types (spec §2 reports, issue 12): the subscriptions with costs in the period and
 * their cost, per base plan group and plan group of the plan each is on now (none: a row without a
 * group), most expensive first. The dashboard's client, period and Scope (`resolveSlice`); the
 * totals are the total cost of the filters and its invoice-level charges (`costTotals`).
 */
export async function planTypes(db: Db, scope: Scope, q: PlanTypesQuery): Promise<PlanTypesList> {
  const slice = await resolveSlice(db, scope, q);
  const smc = subscriptionMonthCost;
  const cents = sql<string>`sum(${smc.cents})::text`;
  const rows = await db
    .select({
      basePlanGroupId: basePlanGroups.id,
      basePlanGroupName: basePlanGroups.name,
      planGroupId: planGroups.id,
      planGroupName: planGroups.name,
      subscriptions: sql<number>`count(distinct ${smc.subscriptionId})::int`,
      cents,
    })
    .from(smc)
    .innerJoin(subscriptions, eq(subscriptions.id, smc.subscriptionId))
    .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .leftJoin(planGroups, eq(planGroups.id, plans.planGroupId))
    .leftJoin(basePlanGroups, eq(basePlanGroups.id, plans.basePlanGroupId))
    .where(slice.inPeriod(smc))
    .groupBy(basePlanGroups.id, basePlanGroups.name, planGroups.id, planGroups.name)
    .orderBy(sql`sum(${smc.cents}) desc`, basePlanGroups.name, planGroups.name);
  const [[all], money] = await Promise.all([
    db
      .select({ n: sql<number>`count(distinct ${smc.subscriptionId})::int` })
      .from(smc)
      .where(slice.inPeriod(smc)),
    costTotals(db, slice),
  ]);
  return {
    clientId: slice.clientId,
    from: slice.from,
    to: slice.to,
    items: rows.map(({ cents: c, ...r }) => ({ ...r, cost: euros(Number(c)) })),
    total: rows.length,
    totals: { subscriptions: all?.n ?? 0, ...money },
  };
}
