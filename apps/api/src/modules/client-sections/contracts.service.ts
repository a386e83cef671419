import { and, eq, ne, sql } from 'drizzle-orm';
import {
  contractCosts,
  contractResource,
  helsinkiDay,
  type Contract,
  type ContractCreate,
  type ContractTerminate,
  type ContractUpdate,
} from '@kulu/shared';
import { clientBillingPlans, clientContracts, clients } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { nameOf, rowWorkflow, type ResourceDef } from '../../lib/resource/resource.service.js';
import type { Caller } from '../../types.js';
import { underClient } from './client-parent.js';

/**
 * Contract management of a client (spec §3 Client contract, §4 draft → active → inactive /
 * terminated, §5). Costs are computed from units, number of plans and the billing plan's fees
 * (`contractCosts` in packages/shared) and stored as saved. Whether a company may use the product
 * today is decided by lib/contract-access.ts from these rows. Their list, detail, create and
 * update are declared on the generic resource mechanism (`contractsDef`); terminating is a
 * workflow beside it.
 */

const AREA = 'contracts';

type ContractRow = typeof clientContracts.$inferSelect;

/** The day a contract stops counting: its termination or inactive date, else its end. */
const effectiveEnd = (c: Pick<ContractRow, 'endDate' | 'inactiveDate' | 'terminationDate'>) =>
  c.terminationDate ?? c.inactiveDate ?? c.endDate;

/**
 * Spec §5 "contract start must be after the previous contract end": a contract that is not a draft
 * may not overlap another non-draft contract of the client; each starts after the one before it
 * ends (its termination or inactive date when it stopped early).
 */
async function assertNoOverlap(
  tx: Executor,
  clientId: number,
  c: { startDate: string; endDate: string },
  exceptId?: number,
) {
  const others = await tx
    .select()
    .from(clientContracts)
    .where(
      and(
        eq(clientContracts.clientId, clientId),
        ne(clientContracts.status, 'draft'),
        exceptId == null ? undefined : ne(clientContracts.id, exceptId),
      ),
    );
  for (const o of others) {
    const earlier = o.startDate <= c.startDate;
    if (earlier ? c.startDate <= effectiveEnd(o) : o.startDate <= c.endDate) {
      throw new AppError(400, 'contractStartBeforePrevious', { startDate: 'invalid' });
    }
  }
}

/** The billing plan priced by (the one given, else the client's) and the computed costs. */
async function pricing(
  tx: Executor,
  clientId: number,
  input: Pick<ContractCreate, 'billingPlanId' | 'units' | 'numberOfPlans' | 'billingCycle'>,
) {
  let planId = input.billingPlanId;
  if (planId == null) {
    const [c] = await tx
      .select({ planId: clients.billingPlanId })
      .from(clients)
      .where(eq(clients.id, clientId));
    planId = c?.planId ?? null;
    if (planId == null) throw new AppError(400, 'contractNoBillingPlan', { billingPlanId: 'required' });
  }
  const [plan] = await tx.select().from(clientBillingPlans).where(eq(clientBillingPlans.id, planId));
  if (!plan) throw new AppError(400, 'validation', { billingPlanId: 'invalid' });
  return { billingPlanId: plan.id, ...contractCosts(input, plan) };
}

/**
 * Terminate an active contract on a day between its start and end (spec §4). The company keeps its
 * access until that day (lib/contract-access.ts), so only a contract that is in force may be
 * terminated: a draft never started (it stays a draft) and an inactive contract has
 * already stopped; terminating either would open the door until the termination date. 409
 * `contractTerminateActiveOnly`. Shortening an active contract cannot make it overlap another.
 */
export async function terminateContract(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  input: ContractTerminate,
  now: Date,
): Promise<Contract> {
  return rowWorkflow(db, contractsDef, me, clientId, id, 'terminate', async (tx, before) => {
    if (before.status !== 'active') throw new AppError(409, 'contractTerminateActiveOnly');
    if (
      input.terminationDate < (before.startDate as string) ||
      input.terminationDate > (before.endDate as string)
    ) {
      throw new AppError(400, 'contractTerminationDate', { terminationDate: 'invalid' });
    }
    await tx
      .update(clientContracts)
      .set({
        status: 'terminated',
        terminationDate: input.terminationDate,
        terminatedAt: now,
        updatedAt: now,
      })
      .where(eq(clientContracts.id, id));
  });
}

/** Allowed: draft → draft / active; active → active / inactive. */
const NEXT: Record<string, readonly string[]> = {
  draft: ['draft', 'active'],
  active: ['active', 'inactive'],
};

/** An update's inactive date: the one given, today when made inactive without one; else none. */
const inactiveDateOf = (input: ContractUpdate, now: Date) =>
  input.status === 'inactive' ? (input.inactiveDate ?? helsinkiDay(now)) : null;

/**
 * The resource (spec §3 Client contract, §4, §5): a contract that is not a draft may not overlap
 * another (400 `contractStartBeforePrevious`); a draft may be activated, an active one made
 * inactive on a day within it, nothing else (409 `contractNotEditable`); the costs are computed
 * from the billing plan (the given one, else the client's) and stored as saved; the first
 * activation's time is kept. Drafts answer `contractDrafted`; activating a draft is logged as
 * `activate`.
 */
export const contractsDef: ResourceDef = {
  meta: contractResource,
  table: clientContracts,
  id: clientContracts.id,
  select: {
    id: clientContracts.id,
    clientId: clientContracts.clientId,
    status: clientContracts.status,
    term: clientContracts.term,
    startDate: clientContracts.startDate,
    endDate: clientContracts.endDate,
    inactiveDate: clientContracts.inactiveDate,
    terminationDate: clientContracts.terminationDate,
    billingPlanId: clientContracts.billingPlanId,
    billingPlanName: nameOf(clientBillingPlans.name, clientBillingPlans.id, clientContracts.billingPlanId),
    billingCycle: clientContracts.billingCycle,
    numberOfPlans: clientContracts.numberOfPlans,
    units: clientContracts.units,
    costPerUnit: clientContracts.costPerUnit,
    monthlyCost: clientContracts.monthlyCost,
    yearlyCost: clientContracts.yearlyCost,
    createdAt: clientContracts.createdAt,
    updatedAt: clientContracts.updatedAt,
  },
  parent: underClient(clientContracts.clientId),
  async validate(tx, input, existing, caller, clientId) {
    if (!existing) {
      const v = input as ContractCreate;
      if (v.status !== 'draft') await assertNoOverlap(tx, clientId!, v);
      return;
    }
    const v = input as ContractUpdate;
    if (!NEXT[existing.status as string]?.includes(v.status)) throw new AppError(409, 'contractNotEditable');
    const inactiveDate = inactiveDateOf(v, caller.now);
    if (inactiveDate && (inactiveDate < v.startDate || inactiveDate > v.endDate)) {
      throw new AppError(400, 'validation', { inactiveDate: 'invalid' });
    }
    if (v.status !== 'draft') {
      const days = { startDate: v.startDate, endDate: inactiveDate ?? v.endDate };
      await assertNoOverlap(tx, clientId!, days, existing.id as number);
    }
  },
  async toValues(input, existing, caller, { tx, parentId }) {
    const v = input as ContractUpdate;
    const now = caller.now;
    const common = {
      status: v.status,
      term: v.term,
      startDate: v.startDate,
      endDate: v.endDate,
      billingCycle: v.billingCycle,
      numberOfPlans: v.numberOfPlans,
      units: v.units,
      ...(await pricing(tx, parentId!, v)),
    };
    if (!existing) return { ...common, activatedAt: v.status === 'active' ? now : null };
    return {
      ...common,
      inactiveDate: inactiveDateOf(v, now),
      // The first activation's time is kept.
      activatedAt:
        v.status === 'active'
          ? sql`coalesce(${clientContracts.activatedAt}, ${now.toISOString()}::timestamptz)`
          : sql`${clientContracts.activatedAt}`,
      updatedAt: now,
    };
  },
  savedMessage: (row, type) =>
    row.status === 'draft' ? 'contractDrafted' : type === 'create' ? 'contractAdded' : 'contractUpdated',
  activityAction: (e) =>
    e.type === 'update' && e.before.status === 'draft' && e.after.status === 'active' ? 'activate' : e.type,
  activityArea: AREA,
  activityEntity: 'contract',
};
