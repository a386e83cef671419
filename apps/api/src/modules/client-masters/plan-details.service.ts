import { and, asc, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type {
  PlanChoice,
  PlanDetail,
  PlanDetailList,
  PlanDetailListQuery,
  PlanDetailUpdate,
} from '@kulu/shared';
import {
  costCenters,
  invoiceUsers,
  operators,
  plans,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import type { Scope } from '../../lib/scope.js';
import { dispatchQueuedRuns, queueOptimization } from '../optimization/optimize.service.js';
import type { Deps } from '../../types.js';
import { AREA, listClient } from './invoice-users.service.js';

/**
 * Plan Details / Edit Plan Details (issue 11): each subscription's current plan, its list price and
 * the client's contract price. A contract price is the client's price of a plan, kept where the
 * plans master keeps client prices: a customer-specific plan row (client_id set) of the same name
 * as the operator's general plan, which invoices already prefer for that client. Setting a
 * contract price on a subscription therefore prices that plan for every subscription of the client
 * on it (the edit dialog says how many). A change queues the client's re-optimization in the same
 * transaction (the optimization outbox) and is logged. Design: docs/decisions/0008-client-masters.md.
 */

const userName = sql<string>`coalesce(${invoiceUsers.name}, ${subscriptions.userName})`;

const columns = {
  subscriptionId: subscriptions.id,
  clientId: subscriptions.clientId,
  phoneNumber: subscriptions.phoneNumber,
  userName,
  operatorId: subscriptions.operatorId,
  operatorName: operators.name,
  subCompanyName: subCompanies.name,
  costCenterName: costCenters.name,
  planId: plans.id,
  planName: plans.name,
  listPrice: plans.listPrice,
  contractPrice: plans.contractPrice,
};

const SORT: Record<string, SQL> = {
  phoneNumber: sql`${subscriptions.phoneNumber}`,
  userName: sql`lower(${userName})`,
  operatorName: sql`lower(${operators.name})`,
  planName: sql`lower(${plans.name})`,
  listPrice: sql`${plans.listPrice}`,
  contractPrice: sql`${plans.contractPrice}`,
};

/** The invoice user of a subscription: the client's person of the same phone number. */
const ofInvoiceUser = and(
  eq(invoiceUsers.clientId, subscriptions.clientId),
  eq(invoiceUsers.phoneNumber, subscriptions.phoneNumber),
);

function baseQuery(db: Executor) {
  return db
    .select(columns)
    .from(subscriptions)
    .innerJoin(operators, eq(operators.id, subscriptions.operatorId))
    .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
    .leftJoin(invoiceUsers, ofInvoiceUser);
}

const SCOPE_COLUMNS = {
  clientId: subscriptions.clientId,
  subCompanyId: subscriptions.subCompanyId,
  costCenterId: subscriptions.costCenterId,
  operatorId: subscriptions.operatorId,
};

export async function listPlanDetails(db: Db, scope: Scope, q: PlanDetailListQuery): Promise<PlanDetailList> {
  const clientId = await listClient(scope, q);
  const pattern = q.q ? containsPattern(q.q) : undefined;
  const where = and(
    scope.ofClient(clientId, SCOPE_COLUMNS, q),
    pattern
      ? or(
          sql`${subscriptions.phoneNumber} ilike ${pattern} escape '\\'`,
          sql`${userName} ilike ${pattern} escape '\\'`,
          sql`${plans.name} ilike ${pattern} escape '\\'`,
        )
      : undefined,
  );
  const dir = q.order === 'desc' ? desc : asc;
  const [items, [{ n }]] = await Promise.all([
    baseQuery(db)
      .where(where)
      .orderBy(sql`${dir(SORT[q.sort ?? 'phoneNumber'])} nulls last`, dir(subscriptions.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(subscriptions)
      .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
      .leftJoin(invoiceUsers, ofInvoiceUser)
      .where(where),
  ]);
  return { items: items as PlanDetail[], total: Number(n), page: q.page, pageSize: q.pageSize };
}

async function getPlanDetail(db: Executor, scope: Scope | null, subscriptionId: number): Promise<PlanDetail> {
  const [row] = await baseQuery(db).where(
    and(eq(subscriptions.id, subscriptionId), scope?.where(SCOPE_COLUMNS)),
  );
  if (!row) throw notFound();
  return row as PlanDetail;
}

/**
 * The plans a subscription may be put on: its operator's general plans, the client's own
 * (customer-specific) rows replacing the general row of the same name, as invoices read them.
 */
async function choicesOf(db: Executor, clientId: number, operatorId: number): Promise<PlanChoice[]> {
  const rows = await db
    .select({
      id: plans.id,
      name: plans.name,
      listPrice: plans.listPrice,
      contractPrice: plans.contractPrice,
      clientId: plans.clientId,
      subscriptions: sql<number>`(select ${count()}::int from ${subscriptions}
        where ${subscriptions.currentPlanId} = ${plans.id} and ${subscriptions.clientId} = ${clientId})`,
    })
    .from(plans)
    .where(and(eq(plans.operatorId, operatorId), or(isNull(plans.clientId), eq(plans.clientId, clientId))))
    .orderBy(sql`lower(${plans.name})`, sql`${plans.clientId} nulls first`);
  const byName = new Map<string, PlanChoice>();
  for (const r of rows) {
    const { clientId: owner, ...rest } = r;
    byName.set(r.name.toLowerCase(), {
      ...rest,
      subscriptions: Number(r.subscriptions),
      customerSpecific: owner != null,
    });
  }
  return [...byName.values()];
}

export async function planChoices(db: Db, scope: Scope, subscriptionId: number): Promise<PlanChoice[]> {
  const detail = await getPlanDetail(db, scope, subscriptionId);
  return choicesOf(db, detail.clientId, detail.operatorId);
}

/**
 * Edit Plan Details: puts the subscription on the chosen plan (one of its operator's, see
 * `choicesOf`) and sets the client's contract price of that plan: on the client's own row of the
 * plan, created as a copy of the general row when there is none yet. No contract price (blank)
 * clears it on the client's row where one exists: the list price applies.
 */
export async function updatePlanDetail(
  deps: Deps,
  caller: Caller,
  subscriptionId: number,
  input: PlanDetailUpdate,
): Promise<{ planDetail: PlanDetail; reoptimization: boolean }> {
  const { db } = deps.database;
  const now = deps.now();
  const result = await db.transaction(async (tx) => {
    const before = await getPlanDetail(tx, caller.scope, subscriptionId);
    const { clientId, operatorId } = before;
    const [chosen] = await tx
      .select()
      .from(plans)
      .where(
        and(
          eq(plans.id, input.planId),
          eq(plans.operatorId, operatorId),
          or(isNull(plans.clientId), eq(plans.clientId, clientId)),
        ),
      );
    if (!chosen) throw new AppError(400, 'validation', { planId: 'invalid' });
    const [own] =
      chosen.clientId === clientId
        ? [chosen]
        : await tx
            .select()
            .from(plans)
            .where(
              and(
                eq(plans.operatorId, operatorId),
                eq(plans.clientId, clientId),
                sql`lower(${plans.name}) = lower(${chosen.name})`,
              ),
            );
    let planId = chosen.id;
    if (own) {
      planId = own.id;
      if (own.contractPrice !== input.contractPrice) {
        await tx
          .update(plans)
          .set({ contractPrice: input.contractPrice, updatedAt: now })
          .where(eq(plans.id, own.id));
      }
    } else if (input.contractPrice != null) {
      const { id: _id, createdAt: _c, updatedAt: _u, ...general } = chosen;
      const [copy] = await tx
        .insert(plans)
        .values({
          ...general,
          scope: 'customer_specific',
          clientId,
          contractPrice: input.contractPrice,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: plans.id });
      planId = copy.id;
    }
    await tx
      .update(subscriptions)
      .set({ currentPlanId: planId, updatedAt: now })
      .where(eq(subscriptions.id, subscriptionId));
    const after = await getPlanDetail(tx, null, subscriptionId);
    const changed = before.planId !== after.planId || before.contractPrice !== after.contractPrice;
    if (changed) {
      await logActivity(tx, {
        userId: caller.user.id,
        clientId,
        area: AREA,
        action: 'update',
        entity: 'planDetail',
        entityId: subscriptionId,
        before,
        after,
      });
      await queueOptimization(tx, clientId, 'plans', caller.user.id);
    }
    return { planDetail: after, reoptimization: changed };
  });
  // The run is recorded in the transaction above; its job is sent now (a failed send is retried by the sweep).
  if (result.reoptimization) await dispatchQueuedRuns(deps).catch(() => {});
  return result;
}
