import { resolveOptions, resultOf } from './best.js';
import { cleanMonth, monthCost, planScalars, requiredSpeedMbps, tariffScalars } from './cost.js';
import type { PlanScalars } from './cost.js';
import type { BestPlanResult, OptimizeOptions, Plan, ReasonCode, Subscription } from './types.js';

/**
 * Usage of many subscriptions as columns: slot `s * stride + m` holds month m (oldest first) of
 * subscription s; `monthCount[s]` slots are filled. One Float64Array per quantity, no object per month.
 * Quantities must be finite and 0 or more (`toColumns` cleans them as `bestPlan` does).
 */
export interface UsageColumns {
  count: number;
  stride: number;
  subscriptionId: Float64Array;
  /** Index of the current plan in the plan list, -1 when it is not there. */
  currentPlan: Int32Array;
  monthCount: Int32Array;
  voiceMinutes: Float64Array;
  sms: Float64Array;
  dataMb: Float64Array;
  nbDataMb: Float64Array;
  euDataMb: Float64Array;
  otherDataMb: Float64Array;
  nbMinutes: Float64Array;
  euMinutes: Float64Array;
  otherMinutes: Float64Array;
}

export function allocateUsage(count: number, stride: number): UsageColumns {
  const col = () => new Float64Array(count * stride);
  return {
    count,
    stride,
    subscriptionId: new Float64Array(count),
    currentPlan: new Int32Array(count).fill(-1),
    monthCount: new Int32Array(count),
    voiceMinutes: col(),
    sms: col(),
    dataMb: col(),
    nbDataMb: col(),
    euDataMb: col(),
    otherDataMb: col(),
    nbMinutes: col(),
    euMinutes: col(),
    otherMinutes: col(),
  };
}

/** Subscriptions as columns, keeping their last `stride` months. */
export function toColumns(
  subscriptions: readonly Subscription[],
  plans: readonly Plan[],
  stride: number,
): UsageColumns {
  const u = allocateUsage(subscriptions.length, stride);
  const index = new Map(plans.map((p, i) => [p.id, i]));
  subscriptions.forEach((sub, s) => {
    u.subscriptionId[s] = sub.id;
    u.currentPlan[s] = index.get(sub.currentPlanId) ?? -1;
    const months = sub.months.slice(-stride);
    u.monthCount[s] = months.length;
    months.forEach((month, k) => {
      const i = s * stride + k;
      const m = cleanMonth(month);
      const rd = m.roamingDataMb ?? {};
      const rm = m.roamingMinutes ?? {};
      u.voiceMinutes[i] = m.voiceMinutes;
      u.sms[i] = m.sms;
      u.dataMb[i] = m.dataMb;
      u.nbDataMb[i] = rd.nordicBaltic ?? 0;
      u.euDataMb[i] = rd.eu ?? 0;
      u.otherDataMb[i] = rd.other ?? 0;
      u.nbMinutes[i] = rm.nordicBaltic ?? 0;
      u.euMinutes[i] = rm.eu ?? 0;
      u.otherMinutes[i] = rm.other ?? 0;
    });
  });
  return u;
}

export const REASON_CODES: readonly ReasonCode[] = [
  'already_best',
  'speed_oversized',
  'usage_charges',
  'eu_allowance_unused',
  'cheaper_fee',
  'unused',
];

/** The batch's answer, one slot per subscription. */
export interface BatchResult {
  /** Index of the best plan, -1 when the subscription has no months or no known current plan. */
  bestPlan: Int32Array;
  currentMonthlyCents: Float64Array;
  bestMonthlyCents: Float64Array;
  /** Percentile domestic data and Nordic-Baltic + EU data, MB (for the reason). */
  dataMb: Float64Array;
  euDataMb: Float64Array;
}

/**
 * `bestPlan` for every subscription at once, with the same answers. Plans are grouped by operator and
 * tried cheapest fee first; a plan is dropped as soon as its running total exceeds the best one.
 */
export function optimizeBatch(
  plans: readonly Plan[],
  usage: UsageColumns,
  options: OptimizeOptions = {},
): BatchResult {
  const o = resolveOptions(options);
  const t = tariffScalars(o.roamingTariff);
  const scalars: PlanScalars[] = plans.map(planScalars);
  // Candidates per operator: considered plans, cheapest fee first (then id), for early pruning.
  const byOperator = new Map<number, number[]>();
  plans.forEach((p, i) => {
    if (!p.considerForOptimization) return;
    const list = byOperator.get(p.operatorId) ?? [];
    list.push(i);
    byOperator.set(p.operatorId, list);
  });
  for (const list of byOperator.values())
    list.sort((a, b) => plans[a].monthlyFeeCents - plans[b].monthlyFeeCents || plans[a].id - plans[b].id);
  const speed = Float64Array.from(plans, (p) => p.speedMbps);
  const domesticOnly = Uint8Array.from(plans, (p) => (p.domesticOnly ? 1 : 0));
  const capMb = Float64Array.from(plans, (p) =>
    p.dataMb !== null && p.exceedingDataCentsPerGb === null ? p.dataMb : Infinity,
  );
  const ids = Float64Array.from(plans, (p) => p.id);

  const n = usage.count;
  const out: BatchResult = {
    bestPlan: new Int32Array(n).fill(-1),
    currentMonthlyCents: new Float64Array(n),
    bestMonthlyCents: new Float64Array(n),
    dataMb: new Float64Array(n),
    euDataMb: new Float64Array(n),
  };
  const {
    stride,
    voiceMinutes,
    sms,
    dataMb,
    nbDataMb,
    euDataMb,
    otherDataMb,
    nbMinutes,
    euMinutes,
    otherMinutes,
  } = usage;
  const dataBuf = new Float64Array(stride);
  const euBuf = new Float64Array(stride);
  const empty: number[] = [];
  /** The cost of slots `from` to `to` on a plan, summed until it exceeds `limit` (then any sum above it). */
  const costOfMonths = (ps: PlanScalars, from: number, to: number, limit: number) => {
    let sum = 0;
    for (let i = from; i < to && sum <= limit; i++)
      sum += monthCost(
        ps,
        t,
        dataMb[i],
        voiceMinutes[i],
        sms[i],
        nbDataMb[i],
        euDataMb[i],
        otherDataMb[i],
        nbMinutes[i],
        euMinutes[i],
        otherMinutes[i],
      );
    return sum;
  };

  for (let s = 0; s < n; s++) {
    const cur = usage.currentPlan[s];
    const count = Math.min(usage.monthCount[s], stride);
    const k = Math.min(count, o.months);
    if (cur < 0 || k === 0) continue;
    const from = s * stride + count - k;
    const to = from + k;

    let roams = false;
    for (let i = from; i < to; i++) {
      dataBuf[i - from] = dataMb[i];
      euBuf[i - from] = nbDataMb[i] + euDataMb[i];
      if (
        nbDataMb[i] > 0 ||
        euDataMb[i] > 0 ||
        otherDataMb[i] > 0 ||
        nbMinutes[i] > 0 ||
        euMinutes[i] > 0 ||
        otherMinutes[i] > 0
      )
        roams = true;
    }
    const rank = Math.floor(o.percentile * (k - 1));
    const dataP = dataBuf.subarray(0, k).sort()[rank];
    const euP = euBuf.subarray(0, k).sort()[rank];
    const sized = dataP * (1 + o.buffer);
    const needSpeed = requiredSpeedMbps(sized, o.speedTiers);

    const currentSum = costOfMonths(scalars[cur], from, to, Infinity);
    let best = cur;
    let bestSum = currentSum;
    const candidates = byOperator.get(plans[cur].operatorId) ?? empty;
    for (let c = 0; c < candidates.length; c++) {
      const p = candidates[c];
      if (p === cur || speed[p] < needSpeed || sized > capMb[p] || (roams && domesticOnly[p] === 1)) continue;
      const ps = scalars[p];
      // Fees ascend and use only adds (a month never costs less than its rounded fee): no later plan can win.
      if (Math.round(ps.fee) * k > bestSum) break;
      const sum = costOfMonths(ps, from, to, bestSum);
      if (sum < bestSum || (sum === bestSum && best !== cur && ids[p] < ids[best])) {
        best = p;
        bestSum = sum;
      }
    }
    out.bestPlan[s] = best;
    out.currentMonthlyCents[s] = Math.round(currentSum / k);
    out.bestMonthlyCents[s] = Math.round(bestSum / k);
    out.dataMb[s] = dataP;
    out.euDataMb[s] = euP;
  }
  return out;
}

/** One subscription's batch answer in the shape `bestPlan` returns (null where it returns null). */
export function batchResultAt(
  result: BatchResult,
  usage: UsageColumns,
  plans: readonly Plan[],
  s: number,
): BestPlanResult | null {
  const b = result.bestPlan[s];
  if (b < 0) return null;
  return resultOf(
    usage.subscriptionId[s],
    plans[usage.currentPlan[s]],
    plans[b],
    result.currentMonthlyCents[s],
    result.bestMonthlyCents[s],
    { dataMb: result.dataMb[s], euDataMb: result.euDataMb[s] },
  );
}
