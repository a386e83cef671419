import { asc, eq } from 'drizzle-orm';
import type { BillingPlanFees, ClientBilling, ClientBillingUpdate } from '@kulu/shared';
import { clientBillingPlans, clients } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Caller } from '../../types.js';

/**
 * Billing management of a client (spec §2 section "billing management", §3 Client billing plan):
 * the Client Billing Plan the client is sold on (`clients.billing_plan_id`, also part of the
 * profile) and the plan's fees, read-only here (the fees are the master's). Contracts are priced
 * by it when they name no plan; on-demand support hours by its support fee per hour.
 */

const AREA = 'billing';

const toFees = (p: typeof clientBillingPlans.$inferSelect): BillingPlanFees => ({
  id: p.id,
  name: p.name,
  contractLengthMonths: p.contractLengthMonths,
  advancePaymentDiscountPercent: p.advancePaymentDiscountPercent,
  costPerPlan: p.costPerPlan,
  setUpFee: p.setUpFee,
  setUpFeePerCompany: p.setUpFeePerCompany,
  additionalUsersFee: p.additionalUsersFee,
  automatedInvoiceUploadFee: p.automatedInvoiceUploadFee,
  onDemandSupportFee: p.onDemandSupportFee,
  adminFee: p.adminFee,
  companyAdditionalUsersFee: p.companyAdditionalUsersFee,
});

async function readBilling(db: Executor, clientId: number): Promise<ClientBilling> {
  const [c] = await db
    .select({ billingPlanId: clients.billingPlanId })
    .from(clients)
    .where(eq(clients.id, clientId));
  if (!c) throw notFound();
  const plans = (await db.select().from(clientBillingPlans).orderBy(asc(clientBillingPlans.name))).map(
    toFees,
  );
  return {
    clientId,
    billingPlanId: c.billingPlanId,
    plan: plans.find((p) => p.id === c.billingPlanId) ?? null,
    plans,
  };
}

/** The client's billing plan with its fees, and every plan it may be put on. */
export async function getBilling(db: Db, clientId: number): Promise<ClientBilling> {
  return readBilling(db, clientId);
}

/** Puts the client on a billing plan (or none); logged with the plan before and after. */
export async function updateBilling(
  db: Db,
  me: Caller,
  clientId: number,
  input: ClientBillingUpdate,
  now: Date,
): Promise<ClientBilling> {
  return db.transaction(async (tx) => {
    if (input.billingPlanId != null) {
      const [hit] = await tx
        .select({ id: clientBillingPlans.id })
        .from(clientBillingPlans)
        .where(eq(clientBillingPlans.id, input.billingPlanId));
      if (!hit) throw new AppError(400, 'validation', { billingPlanId: 'invalid' });
    }
    const [row] = await tx
      .select({ billingPlanId: clients.billingPlanId })
      .from(clients)
      .where(eq(clients.id, clientId))
      .for('update');
    if (!row) throw notFound();
    await tx
      .update(clients)
      .set({ billingPlanId: input.billingPlanId, updatedAt: now })
      .where(eq(clients.id, clientId));
    const after = await readBilling(tx, clientId);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'update',
      entity: 'clientBilling',
      entityId: clientId,
      before: { billingPlanId: row.billingPlanId },
      after: { billingPlanId: after.billingPlanId, plan: after.plan },
    });
    return after;
  });
}
