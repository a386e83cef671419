import { and, asc, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Lang, SubscriptionDetail, SubscriptionDetailQuery } from '@kulu/shared';
import {
  clients,
  costCategories,
  costCenters,
  invoices,
  monthlyFacts,
  operators,
  plans,
  subCompanies,
  subscriptions,
} from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import { categoryCosts, factsInScope } from '../invoices/invoices.service.js';
import { subscriptionFinding } from '../optimization/optimization.service.js';

const f = monthlyFacts;
const monthOf = (col: unknown) => sql<string>`to_char(${col}, 'YYYY-MM')`;
const num = (s: string | null) => (s == null ? 0 : Number(s));

/**
 * One subscription in the caller's scope (another client's, or one outside a client user's
 * sub-companies or cost centers: 404): who and what it is, its months of cost and usage, cost by
 * category for a period, the invoices it is on and its optimization finding (when the caller may
 * view optimization).
 */
export async function getSubscription(
  db: Db,
  scope: Scope,
  id: number,
  q: SubscriptionDetailQuery,
  lang: Lang,
  canViewOptimization: boolean,
): Promise<SubscriptionDetail> {
  const [s] = await db
    .select({
      id: subscriptions.id,
      clientId: subscriptions.clientId,
      clientName: clients.companyName,
      phoneNumber: subscriptions.phoneNumber,
      userName: subscriptions.userName,
      operatorId: subscriptions.operatorId,
      operatorName: operators.name,
      subCompanyId: subscriptions.subCompanyId,
      subCompanyName: subCompanies.name,
      costCenterId: subscriptions.costCenterId,
      costCenterName: costCenters.name,
      planId: plans.id,
      planName: plans.name,
      listPrice: plans.listPrice,
      contractPrice: plans.contractPrice,
      firstSeenMonth: monthOf(subscriptions.firstSeenMonth),
      lastSeenMonth: monthOf(subscriptions.lastSeenMonth),
    })
    .from(subscriptions)
    .innerJoin(clients, eq(clients.id, subscriptions.clientId))
    .innerJoin(operators, eq(operators.id, subscriptions.operatorId))
    .leftJoin(subCompanies, eq(subCompanies.id, subscriptions.subCompanyId))
    .leftJoin(costCenters, eq(costCenters.id, subscriptions.costCenterId))
    .leftJoin(plans, eq(plans.id, subscriptions.currentPlanId))
    .where(
      and(
        eq(subscriptions.id, id),
        scope.where({
          clientId: subscriptions.clientId,
          subCompanyId: subscriptions.subCompanyId,
          costCenterId: subscriptions.costCenterId,
          operatorId: subscriptions.operatorId,
        }),
      ),
    );
  if (!s) throw notFound();

  const mine = and(eq(f.subscriptionId, id), eq(f.clientId, s.clientId), factsInScope(scope));
  const roaming = sql`${costCategories.zone} is not null and ${costCategories.zone} <> 'domestic'`;
  const qty = (cond: ReturnType<typeof sql>) =>
    sql<string>`coalesce(sum(${f.quantity}) filter (where ${cond}), 0)::text`;
  const monthRows = await db
    .select({
      month: monthOf(f.month),
      cost: sql<string>`sum(${f.amount})::text`,
      voice: qty(sql`${f.unit} = 'min'`),
      sms: qty(sql`${f.unit} = 'pcs' and ${costCategories.usageType} = 'sms'`),
      data: qty(sql`${f.unit} = 'mb'`),
      roamingVoice: qty(sql`${f.unit} = 'min' and ${roaming}`),
      roamingData: qty(sql`${f.unit} = 'mb' and ${roaming}`),
      roamingCost: sql<string>`coalesce(sum(${f.amount}) filter (where ${roaming}), 0)::text`,
    })
    .from(f)
    .leftJoin(costCategories, eq(costCategories.id, f.costCategoryId))
    .where(mine)
    .groupBy(f.month)
    .orderBy(asc(f.month));
  const months = monthRows.map((m) => ({
    month: m.month,
    cost: m.cost,
    voiceMinutes: num(m.voice),
    sms: num(m.sms),
    dataMb: num(m.data),
    roamingVoiceMinutes: num(m.roamingVoice),
    roamingDataMb: num(m.roamingData),
    roamingCost: m.roamingCost,
  }));

  const from = q.from ?? months[0]?.month ?? s.firstSeenMonth;
  const to = q.to ?? months.at(-1)?.month ?? s.lastSeenMonth;
  const inPeriod = and(mine, gte(f.month, `${from}-01`), lte(f.month, `${to}-01`));
  const [byCategory, [total], invoiceRows, finding] = await Promise.all([
    categoryCosts(db, inPeriod, lang),
    db
      .select({ cost: sql<string>`coalesce(sum(${f.amount}), 0.00)::numeric(16,2)::text` })
      .from(f)
      .where(inPeriod),
    db
      .select({
        invoiceId: invoices.id,
        invoiceNumber: invoices.invoiceNumber,
        invoiceDate: invoices.invoiceDate,
        month: sql<string | null>`to_char(${invoices.periodStart}, 'YYYY-MM')`,
        operatorName: operators.name,
        amount: sql<string>`sum(${f.amount})::text`,
      })
      .from(f)
      .innerJoin(invoices, eq(invoices.id, f.invoiceId))
      .leftJoin(operators, eq(operators.id, invoices.operatorId))
      .where(and(mine, scope.where({ clientId: invoices.clientId, subCompanyId: invoices.subCompanyId })))
      .groupBy(invoices.id, operators.name)
      .orderBy(desc(invoices.periodStart), desc(invoices.id)),
    canViewOptimization ? subscriptionFinding(db, s.id, s.clientId, lang) : null,
  ]);

  const { planId, planName, listPrice, contractPrice, ...rest } = s;
  return {
    ...rest,
    currentPlan:
      planId != null && planName != null
        ? {
            id: planId,
            name: planName,
            monthlyFee: contractPrice ?? listPrice!,
            contractPrice: contractPrice != null,
          }
        : null,
    months,
    from,
    to,
    byCategory,
    totalCost: total?.cost ?? '0.00',
    invoices: invoiceRows,
    finding,
  };
}
