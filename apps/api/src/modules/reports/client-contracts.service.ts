import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { ClientContractRow, ClientContractsList, ClientContractsQuery } from '@kulu/shared';
import { clientBillingPlans, clientContracts, clients } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { containsPattern } from '../../lib/resource/resource.service.js';

/**
 * The Client Contracts report (issue 12, admin only): every client's contracts, active or
 * inactive (ended early or terminated; drafts are not contracts yet), with the billing plan,
 * number of plans and costs as saved, filtered, sorted, paged, with totals.
 */

const SORT: Record<NonNullable<ClientContractsQuery['sort']>, SQL> = {
  clientName: sql`lower(${clients.companyName})`,
  startDate: sql`${clientContracts.startDate}`,
  endDate: sql`${clientContracts.endDate}`,
  status: sql`${clientContracts.status}`,
  monthlyCost: sql`${clientContracts.monthlyCost}`,
};

export type ClientContractsFilters = Pick<ClientContractsQuery, 'state' | 'clientId' | 'q'>;

/** The contracts of the filters within the caller's Scope. */
const whereOf = (scope: Scope, q: ClientContractsFilters) =>
  and(
    scope.where({ clientId: clientContracts.clientId }),
    ne(clientContracts.status, 'draft'),
    q.state === 'active'
      ? eq(clientContracts.status, 'active')
      : q.state === 'inactive'
        ? inArray(clientContracts.status, ['inactive', 'terminated'])
        : undefined,
    q.clientId != null ? eq(clientContracts.clientId, q.clientId) : undefined,
    q.q
      ? or(ilike(clients.companyName, containsPattern(q.q)), ilike(clients.businessId, containsPattern(q.q)))
      : undefined,
  );

const base = (db: Db) =>
  db
    .select({
      contractId: clientContracts.id,
      clientId: clientContracts.clientId,
      clientName: clients.companyName,
      businessId: clients.businessId,
      status: clientContracts.status,
      term: clientContracts.term,
      startDate: clientContracts.startDate,
      endDate: clientContracts.endDate,
      endedOn: sql<
        string | null
      >`coalesce(${clientContracts.terminationDate}, ${clientContracts.inactiveDate})::text`,
      billingPlanName: clientBillingPlans.name,
      billingCycle: clientContracts.billingCycle,
      numberOfPlans: clientContracts.numberOfPlans,
      units: clientContracts.units,
      monthlyCost: clientContracts.monthlyCost,
      yearlyCost: clientContracts.yearlyCost,
    })
    .from(clientContracts)
    .innerJoin(clients, eq(clients.id, clientContracts.clientId))
    .leftJoin(clientBillingPlans, eq(clientBillingPlans.id, clientContracts.billingPlanId));

export async function clientContractsReport(
  db: Db,
  scope: Scope,
  q: ClientContractsQuery,
): Promise<ClientContractsList> {
  const where = whereOf(scope, q);
  const dir = q.order === 'desc' ? desc : asc;
  const items = await base(db)
    .where(where)
    .orderBy(dir(SORT[q.sort ?? 'clientName']), asc(clientContracts.startDate), asc(clientContracts.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  const [totals] = await db
    .select({
      contracts: sql<number>`count(*)::int`,
      numberOfPlans: sql<number>`coalesce(sum(${clientContracts.numberOfPlans}), 0)::int`,
      monthlyCost: sql<string>`coalesce(sum(${clientContracts.monthlyCost}), 0)::numeric(14, 2)::text`,
      yearlyCost: sql<string>`coalesce(sum(${clientContracts.yearlyCost}), 0)::numeric(14, 2)::text`,
    })
    .from(clientContracts)
    .innerJoin(clients, eq(clients.id, clientContracts.clientId))
    .where(where);
  return {
    items: items as ClientContractRow[],
    total: totals.contracts,
    totals,
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Every contract of the filters in the report's order, in batches (the export). */
export async function* clientContractsBatches(db: Db, scope: Scope, q: ClientContractsQuery, size = 500) {
  for (let page = 1; ; page++) {
    const list = await clientContractsReport(db, scope, { ...q, page, pageSize: size });
    if (!list.items.length) return;
    yield list.items;
    if (page * size >= list.total) return;
  }
}
