import { eq, sql } from 'drizzle-orm';
import {
  OPTIMIZABLE_USAGE_TYPES,
  type CostSummaryList,
  type SummaryQuery,
  type UsageSummaryList,
} from '@kulu/shared';
import { costCategories, costCenters, monthlyCostSummary } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { Scope } from '../../lib/scope.js';
import { resolveSlice } from './dashboards.service.js';
import { euros, toCents } from './money.js';

const f = monthlyCostSummary;
const round2 = (n: number) => Math.round(n * 100) / 100;
const optimizable = sql`${costCategories.usageType} in (${sql.join(
  OPTIMIZABLE_USAGE_TYPES.map((u) => sql`${u}`),
  sql`, `,
)})`;
const usage = sql`${costCategories.usageType} in ('voice', 'sms', 'mms', 'data')`;
const roaming = sql`coalesce(${costCategories.zone}, 'domestic') <> 'domestic'`;

/**
 * The rows of the Optimizable Cost and Usage Summaries (issue 12): the summary pre-aggregate of the
 * dashboards, for the entire organization or by cost center, through the dashboards' client,
 * period and Scope (`resolveSlice`).
 */
async function summaryRows(db: Db, scope: Scope, q: SummaryQuery) {
  const slice = await resolveSlice(db, scope, q);
  const byCenter = q.groupBy === 'costCenter';
  const rows = await db
    .select({
      costCenterId: byCenter ? f.costCenterId : sql<number | null>`null::int`,
      name: byCenter ? costCenters.name : sql<string | null>`null::text`,
      optimizable: sql<string>`coalesce(sum(${f.amount}) filter (where ${optimizable}), 0)::text`,
      total: sql<string>`coalesce(sum(${f.amount}), 0)::text`,
      usageCost: sql<string>`coalesce(sum(${f.amount}) filter (where ${usage}), 0)::text`,
      voice: sql<string>`coalesce(sum(${f.minutes}) filter (where not ${roaming}), 0)::text`,
      roamingVoice: sql<string>`coalesce(sum(${f.minutes}) filter (where ${roaming}), 0)::text`,
      sms: sql<string>`coalesce(sum(${f.pieces}) filter (where ${costCategories.usageType} in ('sms', 'mms')), 0)::text`,
      data: sql<string>`coalesce(sum(${f.megabytes}) filter (where not ${roaming}), 0)::text`,
      roamingData: sql<string>`coalesce(sum(${f.megabytes}) filter (where ${roaming}), 0)::text`,
    })
    .from(f)
    .leftJoin(costCategories, eq(costCategories.id, f.costCategoryId))
    .leftJoin(costCenters, eq(costCenters.id, f.costCenterId))
    .where(slice.inPeriod(f))
    .groupBy(...(byCenter ? [f.costCenterId, costCenters.name] : []))
    .orderBy(sql`sum(${f.amount}) desc`);
  return { slice, rows: rows.filter((r) => byCenter || toCents(r.total) !== 0 || Number(r.voice) !== 0) };
}

/** A summary's answer: its client and period, every row (no paging) and the rows' totals. */
const summaryList = <I, T>(slice: { clientId: number; from: string; to: string }, items: I[], totals: T) => ({
  clientId: slice.clientId,
  from: slice.from,
  to: slice.to,
  items,
  total: items.length,
  totals,
});

export async function costSummaries(db: Db, scope: Scope, q: SummaryQuery): Promise<CostSummaryList> {
  const { slice, rows } = await summaryRows(db, scope, q);
  const items = rows.map((r) => {
    const total = toCents(r.total);
    const opt = toCents(r.optimizable);
    return {
      costCenterId: r.costCenterId,
      name: r.name,
      optimizableCost: euros(opt),
      otherCost: euros(total - opt),
      totalCost: euros(total),
    };
  });
  const sum = (k: 'optimizableCost' | 'otherCost' | 'totalCost') =>
    euros(items.reduce((a, i) => a + toCents(i[k]), 0));
  return summaryList(slice, items, {
    optimizableCost: sum('optimizableCost'),
    otherCost: sum('otherCost'),
    totalCost: sum('totalCost'),
  });
}

export async function usageSummaries(db: Db, scope: Scope, q: SummaryQuery): Promise<UsageSummaryList> {
  const { slice, rows } = await summaryRows(db, scope, q);
  const items = rows.map((r) => ({
    costCenterId: r.costCenterId,
    name: r.name,
    voiceMinutes: round2(Number(r.voice)),
    sms: round2(Number(r.sms)),
    dataMb: round2(Number(r.data)),
    roamingVoiceMinutes: round2(Number(r.roamingVoice)),
    roamingDataMb: round2(Number(r.roamingData)),
    usageCost: euros(toCents(r.usageCost)),
  }));
  const sum = (k: 'voiceMinutes' | 'sms' | 'dataMb' | 'roamingVoiceMinutes' | 'roamingDataMb') =>
    round2(items.reduce((a, i) => a + i[k], 0));
  return summaryList(slice, items, {
    voiceMinutes: sum('voiceMinutes'),
    sms: sum('sms'),
    dataMb: sum('dataMb'),
    roamingVoiceMinutes: sum('roamingVoiceMinutes'),
    roamingDataMb: sum('roamingDataMb'),
    usageCost: euros(items.reduce((a, i) => a + toCents(i.usageCost), 0)),
  });
}
