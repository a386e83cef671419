import { and, asc, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type {
  SubCompany,
  SubCompanyInput,
  SubCompanyList,
  SubCompanyListQuery,
  SubCompanySortKey,
} from '@kulu/shared';
import {
  clientBillingPlans,
  costCenters,
  invoices,
  invoiceUsers,
  monthlyFacts,
  subCompanies,
  subscriptions,
  userSubCompanies,
} from '../../db/schema/index.js';
import type { Db, Executor, Tx } from '../../db/client.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { containsPattern, type Caller } from '../../lib/resource/resource.service.js';
import { conflictAs } from '../../lib/db-values.js';

/**
 * Sub-company management of a client (spec §2, §3 Sub-company: name, number of users, billing
 * plan; §8 "Sub-company name already exists"). The name is unique within the client (case
 * insensitive; the unique index `sub_companies_client_name_uq` is the safety net). A sub-company
 * that anything refers to (client users, cost centers, invoice users, invoices, subscriptions)
 * is not deleted: 409 `subCompanyInUse`.
 */

const AREA = 'clients';
const ENTITY = 'subCompany';

/** Client users limited to the sub-company. */
const userCount = sql<number>`(select count(*)::int from ${userSubCompanies} where ${userSubCompanies.subCompanyId} = ${subCompanies.id})`;

const columns = {
  id: subCompanies.id,
  clientId: subCompanies.clientId,
  name: subCompanies.name,
  numberOfUsers: subCompanies.numberOfUsers,
  billingPlanId: subCompanies.billingPlanId,
  billingPlanName: clientBillingPlans.name,
  userCount,
  createdAt: subCompanies.createdAt,
};

const SORT: Record<SubCompanySortKey, SQL | typeof subCompanies.name> = {
  name: sql`lower(${subCompanies.name})`,
  numberOfUsers: sql`${subCompanies.numberOfUsers}`,
  userCount,
  billingPlanName: sql`lower(${clientBillingPlans.name})`,
  createdAt: sql`${subCompanies.createdAt}`,
};

type Row = Omit<SubCompany, 'createdAt'> & { createdAt: Date | string };
const toEntity = (r: Row): SubCompany => ({ ...r, createdAt: new Date(r.createdAt).toISOString() });

const baseQuery = (db: Executor) =>
  db
    .select(columns)
    .from(subCompanies)
    .leftJoin(clientBillingPlans, eq(clientBillingPlans.id, subCompanies.billingPlanId));

export async function listSubCompanies(
  db: Db,
  me: Caller,
  clientId: number,
  q: SubCompanyListQuery,
): Promise<SubCompanyList> {
  await me.scope.assertClient(clientId);
  const where = and(
    eq(subCompanies.clientId, clientId),
    q.q ? ilike(subCompanies.name, containsPattern(q.q)) : undefined,
  );
  const dir = q.order === 'desc' ? desc : asc;
  const rows = await baseQuery(db)
    .where(where)
    .orderBy(dir(SORT[q.sort ?? 'name']), dir(subCompanies.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [agg] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(subCompanies)
    .where(where);
  return { items: rows.map(toEntity), total: agg.total, page: q.page, pageSize: q.pageSize };
}

async function oneSubCompany(db: Executor, clientId: number, id: number): Promise<SubCompany> {
  const [row] = await baseQuery(db).where(and(eq(subCompanies.id, id), eq(subCompanies.clientId, clientId)));
  if (!row) throw notFound();
  return toEntity(row);
}

/** A sub-company of the client (404 for another client's id). */
export async function getSubCompany(db: Db, me: Caller, clientId: number, id: number): Promise<SubCompany> {
  await me.scope.assertClient(clientId);
  return oneSubCompany(db, clientId, id);
}

/** 409 with the spec's message when another sub-company of the client has the name. */
async function assertNameFree(tx: Tx, clientId: number, name: string, selfId: number | null) {
  const [hit] = await tx
    .select({ id: subCompanies.id })
    .from(subCompanies)
    .where(
      and(
        eq(subCompanies.clientId, clientId),
        sql`lower(${subCompanies.name}) = lower(${name})`,
        selfId == null ? undefined : ne(subCompanies.id, selfId),
      ),
    )
    .limit(1);
  if (hit) throw new AppError(409, 'subCompanyNameExists');
}

async function assertBillingPlan(tx: Tx, id: number | null) {
  if (id == null) return;
  const [p] = await tx
    .select({ id: clientBillingPlans.id })
    .from(clientBillingPlans)
    .where(eq(clientBillingPlans.id, id));
  if (!p) throw new AppError(400, 'validation', { billingPlanId: 'invalid' });
}

/** A unique violation that slipped past the check (a concurrent write) → the same 409. */
function mapConflict(err: unknown): never {
  return conflictAs(err, 'subCompanyNameExists');
}

export async function createSubCompany(
  db: Db,
  me: Caller,
  clientId: number,
  input: SubCompanyInput,
): Promise<SubCompany> {
  await me.scope.assertClient(clientId);
  try {
    return await db.transaction(async (tx) => {
      await assertNameFree(tx, clientId, input.name, null);
      await assertBillingPlan(tx, input.billingPlanId);
      const [row] = await tx
        .insert(subCompanies)
        .values({
          clientId,
          name: input.name,
          numberOfUsers: input.numberOfUsers,
          billingPlanId: input.billingPlanId,
        })
        .returning({ id: subCompanies.id });
      const after = await oneSubCompany(tx, clientId, row.id);
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'create',
        entity: ENTITY,
        entityId: row.id,
        after,
      });
      return after;
    });
  } catch (err) {
    mapConflict(err);
  }
}

export async function updateSubCompany(
  db: Db,
  me: Caller,
  clientId: number,
  id: number,
  input: SubCompanyInput,
): Promise<SubCompany> {
  await me.scope.assertClient(clientId);
  try {
    return await db.transaction(async (tx) => {
      const before = await oneSubCompany(tx, clientId, id);
      await assertNameFree(tx, clientId, input.name, id);
      await assertBillingPlan(tx, input.billingPlanId);
      await tx
        .update(subCompanies)
        .set({ name: input.name, numberOfUsers: input.numberOfUsers, billingPlanId: input.billingPlanId })
        .where(eq(subCompanies.id, id));
      const after = await oneSubCompany(tx, clientId, id);
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'update',
        entity: ENTITY,
        entityId: id,
        before,
        after,
      });
      return after;
    });
  } catch (err) {
    mapConflict(err);
  }
}

/** Whether any row refers to the sub-company (then it is kept: 409). */
async function inUse(tx: Tx, id: number): Promise<boolean> {
  const refs = [
    [userSubCompanies, userSubCompanies.subCompanyId],
    [costCenters, costCenters.subCompanyId],
    [invoiceUsers, invoiceUsers.subCompanyId],
    [invoices, invoices.subCompanyId],
    [subscriptions, subscriptions.subCompanyId],
    [monthlyFacts, monthlyFacts.subCompanyId],
  ] as const;
  for (const [table, col] of refs) {
    const [hit] = await tx
      .select({ one: sql`1` })
      .from(table)
      .where(eq(col, id))
      .limit(1);
    if (hit) return true;
  }
  return false;
}

export async function deleteSubCompany(db: Db, me: Caller, clientId: number, id: number): Promise<void> {
  await me.scope.assertClient(clientId);
  try {
    await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ id: subCompanies.id })
        .from(subCompanies)
        .where(and(eq(subCompanies.id, id), eq(subCompanies.clientId, clientId)))
        .for('update');
      if (!locked) throw notFound();
      const before = await oneSubCompany(tx, clientId, id);
      if (await inUse(tx, id)) throw new AppError(409, 'subCompanyInUse');
      await tx.delete(subCompanies).where(eq(subCompanies.id, id));
      await logActivity(tx, {
        userId: me.user.id,
        clientId,
        area: AREA,
        action: 'delete',
        entity: ENTITY,
        entityId: id,
        before,
        after: null,
      });
    });
  } catch (err) {
    // A reference added meanwhile (a foreign key violation) is the same "in use".
    const e = err as { code?: string; cause?: { code?: string } };
    if ((e.code ?? e.cause?.code) === '23503') throw new AppError(409, 'subCompanyInUse');
    throw err;
  }
}

/** The choices of the sections' forms (billing plans, the client's sub-companies and cost centers). */
export async function clientOptions(db: Db, me: Caller, clientId: number) {
  await me.scope.assertClient(clientId);
  const billingPlans = await db
    .select({ id: clientBillingPlans.id, name: clientBillingPlans.name })
    .from(clientBillingPlans)
    .orderBy(asc(clientBillingPlans.name));
  const subs = await db
    .select({ id: subCompanies.id, name: subCompanies.name })
    .from(subCompanies)
    .where(eq(subCompanies.clientId, clientId))
    .orderBy(asc(subCompanies.name));
  const ccs = await db
    .select({ id: costCenters.id, name: costCenters.name, subCompanyId: costCenters.subCompanyId })
    .from(costCenters)
    .where(eq(costCenters.clientId, clientId))
    .orderBy(asc(costCenters.name));
  return { billingPlans, subCompanies: subs, costCenters: ccs };
}
