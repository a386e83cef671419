import {
  cleanMonth,
  lowerPercentile,
  planScalars,
  requiredSpeedMbps,
  tariffScalars,
  usageMonthCost,
} from './cost.js';
import type { PlanScalars, TariffScalars } from './cost.js';
import { DEFAULT_ROAMING_TARIFF, DEFAULT_SPEED_TIERS } from './types.js';
import type {
  BestPlanResult,
  OptimizeOptions,
  Plan,
  Reason,
  Subscription,
  UnusedFinding,
  UsageMonth,
} from './types.js';

export const DEFAULT_OPTIONS = {
  months: 6,
  percentile: 0.9,
  buffer: 0.2,
  speedTiers: DEFAULT_SPEED_TIERS,
  roamingTariff: DEFAULT_ROAMING_TARIFF,
} as const satisfies Required<OptimizeOptions>;

export function resolveOptions(options: OptimizeOptions = {}): Required<OptimizeOptions> {
  const o = { ...DEFAULT_OPTIONS, ...options };
  if (!Number.isInteger(o.months) || o.months < 1) throw new RangeError('months must be a positive integer');
  if (!(o.percentile >= 0 && o.percentile <= 1)) throw new RangeError('percentile must be within 0..1');
  if (!(o.buffer >= 0)) throw new RangeError('buffer must be 0 or more');
  return o;
}

/** What sizing reads from the months looked at. */
export interface Sizing {
  /** The percentile of monthly domestic data, MB (what the reason quotes). */
  dataMb: number;
  /** The same with the buffer: what a plan must carry. */
  sizedDataMb: number;
  /** The percentile of monthly data in the Nordic-Baltic and EU regions, MB. */
  euDataMb: number;
  /** Any roaming at all in the months looked at. */
  roams: boolean;
}

export function sizeUsage(months: readonly UsageMonth[], percentile: number, buffer: number): Sizing {
  const data: number[] = [];
  const eu: number[] = [];
  let roams = false;
  for (const m of months) {
    const rd = m.roamingDataMb ?? {};
    const rm = m.roamingMinutes ?? {};
    data.push(m.dataMb);
    eu.push((rd.nordicBaltic ?? 0) + (rd.eu ?? 0));
    if (
      (rd.nordicBaltic ?? 0) > 0 ||
      (rd.eu ?? 0) > 0 ||
      (rd.other ?? 0) > 0 ||
      (rm.nordicBaltic ?? 0) > 0 ||
      (rm.eu ?? 0) > 0 ||
      (rm.other ?? 0) > 0
    )
      roams = true;
  }
  const dataMb = lowerPercentile(data, percentile);
  return { dataMb, sizedDataMb: dataMb * (1 + buffer), euDataMb: lowerPercentile(eu, percentile), roams };
}

/** Whether a plan suits the sized use (the current plan is compared whether or not it does). */
export function suits(plan: Plan, sizing: Sizing, requiredSpeed: number): boolean {
  if (plan.domesticOnly && sizing.roams) return false;
  if (plan.speedMbps < requiredSpeed) return false;
  if (plan.dataMb !== null && plan.exceedingDataCentsPerGb === null && sizing.sizedDataMb > plan.dataMb)
    return false;
  return true;
}

function windowCost(p: PlanScalars, t: TariffScalars, months: readonly UsageMonth[]): number {
  let sum = 0;
  for (const m of months) sum += usageMonthCost(p, t, m);
  return sum;
}

const gb1 = (mb: number) => Math.round((mb / 1024) * 10) / 10;

/** Why the best plan wins, in numbers (the renderers put it in words). */
export function explain(
  current: Plan,
  best: Plan,
  currentMonthlyCents: number,
  bestMonthlyCents: number,
  sizing: Pick<Sizing, 'dataMb' | 'euDataMb'>,
): Reason {
  if (best.id === current.id) return { code: 'already_best', params: {} };
  if (best.monthlyFeeCents > current.monthlyFeeCents)
    return {
      code: 'usage_charges',
      params: {
        usageCents: currentMonthlyCents - current.monthlyFeeCents,
        currentMonthlyCents,
        bestMonthlyCents,
      },
    };
  if (best.speedMbps < current.speedMbps)
    return {
      code: 'speed_oversized',
      params: {
        dataGb: gb1(sizing.dataMb),
        currentSpeedMbps: current.speedMbps,
        bestSpeedMbps: best.speedMbps,
      },
    };
  if (current.euIncluded && best.euDataGb < current.euDataGb)
    return {
      code: 'eu_allowance_unused',
      params: { euGb: gb1(sizing.euDataMb), currentEuGb: current.euDataGb, bestEuGb: best.euDataGb },
    };
  return {
    code: 'cheaper_fee',
    params: { currentMonthlyCents, bestMonthlyCents, contractPrice: best.customerSpecific ? 1 : 0 },
  };
}

/**
 * The cheapest plan for a subscription over its last N months: among the current plan and the plans of
 * the same operator marked *consider for optimization* that suit its use (see `suits`), the one whose
 * months cost the least in total. Ties keep the current plan; among other plans the lower id wins.
 * Returns null when the subscription has no months or its current plan is not among `plans`.
 */
export function bestPlan(
  subscription: Subscription,
  plans: readonly Plan[],
  options: OptimizeOptions = {},
): BestPlanResult | null {
  const o = resolveOptions(options);
  const current = plans.find((p) => p.id === subscription.currentPlanId);
  const months = subscription.months.slice(-o.months).map(cleanMonth);
  if (!current || months.length === 0) return null;
  const t = tariffScalars(o.roamingTariff);
  const sizing = sizeUsage(months, o.percentile, o.buffer);
  const speed = requiredSpeedMbps(sizing.sizedDataMb, o.speedTiers);

  const currentSum = windowCost(planScalars(current), t, months);
  let best = current;
  let bestSum = currentSum;
  for (const plan of plans) {
    if (plan.id === current.id || plan.operatorId !== current.operatorId || !plan.considerForOptimization)
      continue;
    if (!suits(plan, sizing, speed)) continue;
    const sum = windowCost(planScalars(plan), t, months);
    if (sum < bestSum || (sum === bestSum && best !== current && plan.id < best.id)) {
      best = plan;
      bestSum = sum;
    }
  }
  const n = months.length;
  return resultOf(
    subscription.id,
    current,
    best,
    Math.round(currentSum / n),
    Math.round(bestSum / n),
    sizing,
  );
}

/** The answer for a subscription: both plans, their monthly costs, the savings and why (`bestPlan`, `batchResultAt`). */
export function resultOf(
  subscriptionId: number,
  current: Plan,
  best: Plan,
  currentMonthlyCents: number,
  bestMonthlyCents: number,
  sizing: Pick<Sizing, 'dataMb' | 'euDataMb'>,
): BestPlanResult {
  const monthlySavingCents = currentMonthlyCents - bestMonthlyCents;
  return {
    subscriptionId,
    currentPlanId: current.id,
    currentMonthlyCents,
    bestPlanId: best.id,
    bestMonthlyCents,
    monthlySavingCents,
    yearlySavingCents: monthlySavingCents * 12,
    reason: explain(current, best, currentMonthlyCents, bestMonthlyCents, sizing),
  };
}

const isIdle = (month: UsageMonth) => {
  const m = cleanMonth(month);
  return (
    m.voiceMinutes === 0 &&
    m.sms === 0 &&
    m.dataMb === 0 &&
    Object.values(m.roamingDataMb ?? {}).every((v) => v === 0) &&
    Object.values(m.roamingMinutes ?? {}).every((v) => v === 0)
  );
};

/** The latest months with no voice, SMS or data (roaming included), counted back from the newest. */
export function idleMonths(subscription: Subscription): number {
  let n = 0;
  for (let i = subscription.months.length - 1; i >= 0 && isIdle(subscription.months[i]); i--) n++;
  return n;
}

/**
 * An unused subscription: no voice, SMS or data in its last `unusedMonthCount` months (the client's
 * *unused month count*). It is a finding of its own, not a plan change: closing it saves its whole fee.
 * Returns null when it was used, or has fewer months than that, or its plan is not among `plans`.
 */
export function unused(
  subscription: Subscription,
  unusedMonthCount: number,
  plans: readonly Plan[],
): UnusedFinding | null {
  if (!Number.isInteger(unusedMonthCount) || unusedMonthCount < 1)
    throw new RangeError('unusedMonthCount must be a positive integer');
  const current = plans.find((p) => p.id === subscription.currentPlanId);
  const idle = idleMonths(subscription);
  if (!current || idle < unusedMonthCount) return null;
  return {
    subscriptionId: subscription.id,
    currentPlanId: current.id,
    monthlySavingCents: current.monthlyFeeCents,
    yearlySavingCents: current.monthlyFeeCents * 12,
    reason: { code: 'unused', params: { months: idle, feeCents: current.monthlyFeeCents } },
  };
}
