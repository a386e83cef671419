import { and, asc, eq, ne } from 'drizzle-orm';
import {
  contractCosts,
  helsinkiDay,
  type Contract,
  type ContractCreate,
  type ContractTerminate,
  type ContractUpdate,
} from '@kulu/shared';
import { clientBillingPlans, clientContracts, clients } from '../../db/schema/index.js';
import type { Db, Executor } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Caller } from '../../lib/resource/resource.service.js';
import { isoTime as iso } from '../../lib/db-values.js';

/**
 * Contract management of a client (spec §3 Client contract, §4 draft → active → inactive /
 * terminated, §5). Costs are computed from units, number of plans and the billing plan's fees
 * (`contractCosts` in packages/shared) and stored as saved. Whether a company may use the product
 * today is decided by lib/contract-access.ts from these rows.
 */

const AREA = 'contracts';

const contractColumns = {
  row: clientContracts,
  billingPlanName: clientBillingPlans.name,
};

type ContractRow = typeof clientContracts.$inferSelect;

function toContract(r: ContractRow, billingPlanName: string | null): Contract {
  return {
    id: r.id,
    clientId: r.clientId,
    status: r.status,
    term: r.term,
    startDate: r.startDate,
    endDate: r.endDate,
    inactiveDate: r.inactiveDate,
    terminationDate: r.terminationDate,
    billingPlanId: r.billingPlanId,
    billingPlanName,
    billingCycle: r.billingCycle,
    numberOfPlans: r.numberOfPlans,
    units: r.units,
    costPerUnit: r.costPerUnit,
    monthlyCost: r.monthlyCost,
    yearlyCost: r.yearlyCost,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  };
}

async function readContracts(db: Executor, clientId: number, id?: number): Promise<Contract[]> {
  const rows = await db
    .select(contractColumns)
    .from(clientContracts)
    .leftJoin(clientBillingPlans, eq(clientBillingPlans.id, clientContracts.billingPlanId))
    .where(and(eq(clientContracts.clientId, clientId), id == null ? undefined : eq(clientContracts.id, id)))
    .orderBy(asc(clientContracts.startDate), asc(clientContracts.id));
  return rows.map((r) => toContract(r.row, r.billingPlanName));
}

/** A client's contracts, oldest first. */
export async function listContracts(db: Db, me: Caller, clientId: number): Promise<Contract[]> {
  await me.scope.assertClient(clientId);
  return readContracts(db, clientId);
}

async function oneContract(db: Executor, clientId: number, id: number): Promise<Contract> {
  const [c] = await readContracts(db, clientId, id);
  if (!c) throw notFound();
  return c;
}

export async function getContract(db: Db, me: Caller, clientId: number, id: number): Promise<Contract> {
  await me.scope.assertClient(clientId);
  return oneContract(db, clientId, id);
}

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

export async function createContract(
  db: Db,
  me: Caller,
  clientId: number,
  input: ContractCreate,
  now: Date,
): Promise<Contract> {
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    if (input.status !== 'draft') await assertNoOverlap(tx, clientId, input);
    const [row] = await tx
      .insert(clientContracts)
      .values({
        clientId,
        status: input.status,
        term: input.term,
        startDate: input.startDate,
        endDate: input.endDate,
        billingCycle: input.billingCycle,
        numberOfPlans: input.numberOfPlans,
        units: input.units,
        ...(await pricing(tx, clientId, input)),
        activatedAt: input.status === 'active' ? now : null,
      })
      .returning();
    const after = await oneContract(tx, clientId, row.id);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'create',
      entity: 'contract',
      entityId: row.id,
      after,
    });
    return after;
  });
}

async function lockedContract(tx: Executor, clientId: number, id: number): Promise<ContractRow> {
  const [row] = await tx
    .select()
    .from(clientContracts)
    .where(and(eq(clientContracts.id, id), eq(clientContracts.clientId, clientId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** Allowed: draft → draft / active; active → active / inactive. */
const NEXT: Record<string, readonly string[]> = {
  draft: ['draft', 'active'],
  active: ['active', 'inactive'],
};

export async function updateContract(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  input: ContractUpdate,
  now: Date,
): Promise<Contract> {
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    const row = await lockedContract(tx, clientId, id);
    if (!NEXT[row.status]?.includes(input.status)) throw new AppError(409, 'contractNotEditable');
    const before = await oneContract(tx, clientId, id);
    const inactiveDate = input.status === 'inactive' ? (input.inactiveDate ?? helsinkiDay(now)) : null;
    if (inactiveDate && (inactiveDate < input.startDate || inactiveDate > input.endDate)) {
      throw new AppError(400, 'validation', { inactiveDate: 'invalid' });
    }
    if (input.status !== 'draft') {
      await assertNoOverlap(
        tx,
        clientId,
        { startDate: input.startDate, endDate: inactiveDate ?? input.endDate },
        id,
      );
    }
    await tx
      .update(clientContracts)
      .set({
        status: input.status,
        term: input.term,
        startDate: input.startDate,
        endDate: input.endDate,
        inactiveDate,
        billingCycle: input.billingCycle,
        numberOfPlans: input.numberOfPlans,
        units: input.units,
        ...(await pricing(tx, clientId, input)),
        activatedAt: row.activatedAt ?? (input.status === 'active' ? now : null),
        updatedAt: now,
      })
      .where(eq(clientContracts.id, id));
    const after = await oneContract(tx, clientId, id);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: row.status === 'draft' && input.status === 'active' ? 'activate' : 'update',
      entity: 'contract',
      entityId: id,
      before,
      after,
    });
    return after;
  });
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
  await me.scope.assertClient(clientId);
  return db.transaction(async (tx) => {
    const row = await lockedContract(tx, clientId, id);
    if (row.status !== 'active') throw new AppError(409, 'contractTerminateActiveOnly');
    if (input.terminationDate < row.startDate || input.terminationDate > row.endDate) {
      throw new AppError(400, 'contractTerminationDate', { terminationDate: 'invalid' });
    }
    const before = await oneContract(tx, clientId, id);
    await tx
      .update(clientContracts)
      .set({
        status: 'terminated',
        terminationDate: input.terminationDate,
        terminatedAt: now,
        updatedAt: now,
      })
      .where(eq(clientContracts.id, id));
    const after = await oneContract(tx, clientId, id);
    await logActivity(tx, {
      userId: me.user.id,
      clientId,
      area: AREA,
      action: 'terminate',
      entity: 'contract',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}
