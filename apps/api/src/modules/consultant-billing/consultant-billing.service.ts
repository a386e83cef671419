import { and, eq, sql } from 'drizzle-orm';
import {
  helsinkiMonth,
  ROLE,
  type ConsultantBillingList,
  type ConsultantBillingOptions,
  type ConsultantBillingQuery,
  type ConsultantBillingRow,
} from '@kulu/shared';
import { clients, users } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { containsPattern } from '../../lib/resource/resource.service.js';
import type { Scope } from '../../lib/scope.js';
import { euros, toCents } from '../dashboards/money.js';

/**
 * Consultant Billing (issue 12, spec §3): per consultant (a client of type consultant) and month,
 * a row per company it manages (`consultant_companies`) with the figures the provider bills from the
 * consultant's client billing plan. Decision: docs/decisions/0014-consultant-billing.md.
 */

/** The consultants a caller may bill or see: every one for the provider admin, its own for a consultant's user. */
async function visibleConsultants(db: Db, scope: Scope): Promise<number[] | null> {
  if (scope.kind === 'providerAdmin' || scope.kind === 'system') return null;
  if (scope.kind !== 'consultant' || scope.userId == null) return [];
  const [me] = await db
    .select({ clientId: users.clientId })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.clientId))
    .where(and(eq(users.id, scope.userId), eq(clients.type, 'consultant')));
  // The provider's own consultants (no client) are not billed: they see none.
  return me?.clientId != null ? [me.clientId] : [];
}

export async function consultantBillingOptions(db: Db, scope: Scope): Promise<ConsultantBillingOptions> {
  const visible = await visibleConsultants(db, scope);
  if (visible && !visible.length) return { consultants: [] };
  const rows = await db
    .select({ id: clients.id, name: clients.companyName, businessId: clients.businessId })
    .from(clients)
    .where(
      and(
        eq(clients.type, 'consultant'),
        visible ? sql`${clients.id} in (${sql.join(visible, sql`, `)})` : undefined,
      ),
    )
    .orderBy(sql`lower(${clients.companyName})`);
  return { consultants: rows };
}

const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
};

interface RawRow {
  consultant_id: number;
  consultant_name: string;
  company_id: number;
  business_id: string;
  company_name: string;
  plans: number;
  additional_users: number;
  automated_uploads: number;
  is_new: boolean;
  billing_plan_name: string | null;
  cost_per_plan: string | null;
  company_additional_users_fee: string | null;
  automated_invoice_upload_fee: string | null;
  set_up_fee_per_company: string | null;
}

const SORTERS: Record<
  NonNullable<ConsultantBillingQuery['sort']>,
  (a: ConsultantBillingRow) => string | number
> = {
  companyName: (r) => r.companyName.toLowerCase(),
  businessId: (r) => r.businessId,
  plans: (r) => r.plans,
  additionalUsers: (r) => r.additionalUsers,
  automatedUploads: (r) => r.automatedUploads,
  total: (r) => toCents(r.total),
};

/**
 * The month's rows: one per consultant and company it manages, with the company's subscriptions
 * billed that month (`subscription_month_cost`), its active client users (the additional users
 * beyond its administrators), its invoices retrieved by automation, whether it was assigned in the
 * month, and the fees of the consultant's billing plan. Figures are exact in cents.
 */
export async function consultantBilling(
  db: Db,
  scope: Scope,
  q: ConsultantBillingQuery,
  now: Date,
): Promise<ConsultantBillingList> {
  const month = q.month ?? helsinkiMonth(now);
  const visible = await visibleConsultants(db, scope);
  if (q.consultantId != null && visible && !visible.includes(q.consultantId)) throw notFound();
  if (q.consultantId != null && !visible) {
    const [c] = await db
      .select({ id: clients.id })
      .from(clients)
      .where(and(eq(clients.id, q.consultantId), eq(clients.type, 'consultant')));
    if (!c) throw notFound();
  }
  const ids = q.consultantId != null ? [q.consultantId] : visible;
  const first = `${month}-01`;
  const after = `${nextMonth(month)}-01`;
  const pattern = q.q ? containsPattern(q.q) : null;
  const { rows } = (await db.execute(sql`
    select k.id as consultant_id, k.company_name as consultant_name,
           c.id as company_id, c.business_id, c.company_name,
           (select count(distinct s.subscription_id)::int from subscription_month_cost s
             where s.client_id = c.id and s.month = ${first}::date) as plans,
           (select count(*)::int from users u
             where u.client_id = c.id and u.role_id = ${ROLE.clientUser} and u.status = 'active') as additional_users,
           (select count(*)::int from invoices i
             where i.client_id = c.id and i.source = 'automation'
               and i.period_start >= ${first}::date and i.period_start < ${after}::date) as automated_uploads,
           (cc.assigned_at >= ${first}::date and cc.assigned_at < ${after}::date) as is_new,
           bp.name as billing_plan_name, bp.cost_per_plan::text, bp.company_additional_users_fee::text,
           bp.automated_invoice_upload_fee::text, bp.set_up_fee_per_company::text
    from consultant_companies cc
    join clients k on k.id = cc.consultant_client_id and k.type = 'consultant'
    join clients c on c.id = cc.client_id
    left join client_billing_plans bp on bp.id = k.billing_plan_id
    where cc.assigned_at < ${after}::date
      ${ids ? (ids.length ? sql`and k.id in (${sql.join(ids, sql`, `)})` : sql`and false`) : sql``}
      ${pattern ? sql`and (c.company_name ilike ${pattern} or c.business_id ilike ${pattern})` : sql``}
  `)) as unknown as { rows: RawRow[] };

  const items: ConsultantBillingRow[] = rows.map((r) => {
    const plansCost = r.plans * toCents(r.cost_per_plan);
    const usersCost = r.additional_users * toCents(r.company_additional_users_fee);
    const uploadsCost = r.automated_uploads * toCents(r.automated_invoice_upload_fee);
    const setUp = r.is_new ? toCents(r.set_up_fee_per_company) : 0;
    return {
      consultantId: r.consultant_id,
      consultantName: r.consultant_name,
      companyId: r.company_id,
      businessId: r.business_id,
      companyName: r.company_name,
      plans: r.plans,
      additionalUsers: r.additional_users,
      automatedUploads: r.automated_uploads,
      isNew: r.is_new,
      billingPlanName: r.billing_plan_name,
      plansCost: euros(plansCost),
      additionalUsersCost: euros(usersCost),
      automatedUploadsCost: euros(uploadsCost),
      setUpCost: euros(setUp),
      total: euros(plansCost + usersCost + uploadsCost + setUp),
    };
  });
  const key = SORTERS[q.sort ?? 'companyName'];
  const dir = q.order === 'desc' ? -1 : 1;
  items.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return (x < y ? -1 : x > y ? 1 : a.companyId - b.companyId || a.consultantId - b.consultantId) * dir;
  });
  const sum = (f: (r: ConsultantBillingRow) => number) => items.reduce((n, r) => n + f(r), 0);
  return {
    month,
    items: items.slice((q.page - 1) * q.pageSize, q.page * q.pageSize),
    total: items.length,
    totals: {
      companies: new Set(items.map((r) => r.companyId)).size,
      plans: sum((r) => r.plans),
      additionalUsers: sum((r) => r.additionalUsers),
      automatedUploads: sum((r) => r.automatedUploads),
      newCompanies: sum((r) => (r.isNew ? 1 : 0)),
      total: euros(sum((r) => toCents(r.total))),
    },
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** Every row of the filters (the export), in the report's order. */
export async function consultantBillingAll(db: Db, scope: Scope, q: ConsultantBillingQuery, now: Date) {
  return consultantBilling(db, scope, { ...q, page: 1, pageSize: Number.MAX_SAFE_INTEGER }, now);
}
