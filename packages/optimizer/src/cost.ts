import { DEFAULT_ROAMING_TARIFF, DEFAULT_SPEED_TIERS } from './types.js';
import type { Plan, RoamingTariff, SpeedTier, UsageMonth } from './types.js';

const MB_PER_GB = 1024;

/** A plan's prices as plain numbers, in the units the cost kernel works in (cents, MB). */
export interface PlanScalars {
  fee: number;
  dataAllowMb: number;
  overCentsPerMb: number;
  voiceAllow: number;
  perMinute: number;
  smsAllow: number;
  perSms: number;
  euAllowMb: number;
  nbIncluded: boolean;
  euIncluded: boolean;
}

/** The roaming tariff per MB / minute. */
export interface TariffScalars {
  euOverPerMb: number;
  nbDataPerMb: number;
  euDataPerMb: number;
  otherDataPerMb: number;
  nbMinute: number;
  euMinute: number;
  otherMinute: number;
}

export function planScalars(plan: Plan): PlanScalars {
  return {
    fee: plan.monthlyFeeCents,
    dataAllowMb: plan.dataMb ?? Infinity,
    overCentsPerMb: (plan.exceedingDataCentsPerGb ?? 0) / MB_PER_GB,
    voiceAllow: plan.voiceMinutes ?? Infinity,
    perMinute: plan.perMinuteCents,
    smsAllow: plan.sms ?? Infinity,
    perSms: plan.perSmsCents,
    euAllowMb: plan.euIncluded || plan.nordicBalticIncluded ? plan.euDataGb * MB_PER_GB : 0,
    nbIncluded: plan.nordicBalticIncluded,
    euIncluded: plan.euIncluded,
  };
}

export function tariffScalars(t: RoamingTariff): TariffScalars {
  return {
    euOverPerMb: t.euOverAllowanceCentsPerGb / MB_PER_GB,
    nbDataPerMb: t.nordicBalticDataCentsPerGb / MB_PER_GB,
    euDataPerMb: t.euDataCentsPerGb / MB_PER_GB,
    otherDataPerMb: t.otherDataCentsPerGb / MB_PER_GB,
    nbMinute: t.nordicBalticMinuteCents,
    euMinute: t.euMinuteCents,
    otherMinute: t.otherMinuteCents,
  };
}

/**
 * The cost kernel shared by `costOfMonth`, `bestPlan` and the batch, so that they agree to the cent.
 * Every term grows with use, so a month with less use never costs more.
 */
export function monthCost(
  p: PlanScalars,
  t: TariffScalars,
  dataMb: number,
  voiceMinutes: number,
  sms: number,
  nbDataMb: number,
  euDataMb: number,
  otherDataMb: number,
  nbMinutes: number,
  euMinutes: number,
  otherMinutes: number,
): number {
  let c = p.fee;
  // Minutes in an included region count as domestic ones; elsewhere the roaming tariff applies.
  let minutes = voiceMinutes;
  if (p.nbIncluded) minutes += nbMinutes;
  else c += nbMinutes * t.nbMinute;
  if (p.euIncluded) minutes += euMinutes;
  else c += euMinutes * t.euMinute;
  c += otherMinutes * t.otherMinute;
  if (minutes > p.voiceAllow) c += (minutes - p.voiceAllow) * p.perMinute;
  if (sms > p.smsAllow) c += (sms - p.smsAllow) * p.perSms;
  if (dataMb > p.dataAllowMb) c += (dataMb - p.dataAllowMb) * p.overCentsPerMb;
  // Data in an included region runs against the EU/EEA fair-use allowance, beyond it the surcharge.
  let atHome = 0;
  if (p.nbIncluded) atHome += nbDataMb;
  else c += nbDataMb * t.nbDataPerMb;
  if (p.euIncluded) atHome += euDataMb;
  else c += euDataMb * t.euDataPerMb;
  if (atHome > p.euAllowMb) c += (atHome - p.euAllowMb) * t.euOverPerMb;
  c += otherDataMb * t.otherDataPerMb;
  return Math.round(c);
}

/** A quantity as the optimizer counts it: negative, NaN or infinite quantities (credits, bad rows) count as 0. */
export const quantity = (x: number | undefined): number => (x !== undefined && x > 0 && x < Infinity ? x : 0);

/** The month with every quantity cleaned by `quantity` and every roaming region present. */
export function cleanMonth(m: UsageMonth): UsageMonth {
  const rd = m.roamingDataMb ?? {};
  const rm = m.roamingMinutes ?? {};
  return {
    voiceMinutes: quantity(m.voiceMinutes),
    sms: quantity(m.sms),
    dataMb: quantity(m.dataMb),
    roamingDataMb: {
      nordicBaltic: quantity(rd.nordicBaltic),
      eu: quantity(rd.eu),
      other: quantity(rd.other),
    },
    roamingMinutes: {
      nordicBaltic: quantity(rm.nordicBaltic),
      eu: quantity(rm.eu),
      other: quantity(rm.other),
    },
  };
}

/** What one month of use costs on a plan: its fee plus the use beyond what it includes, integer cents. */
export function costOfMonth(
  plan: Plan,
  usage: UsageMonth,
  tariff: RoamingTariff = DEFAULT_ROAMING_TARIFF,
): number {
  return usageMonthCost(planScalars(plan), tariffScalars(tariff), cleanMonth(usage));
}

/** `monthCost` of a (clean) month of use as `UsageMonth` holds it. */
export function usageMonthCost(p: PlanScalars, t: TariffScalars, m: UsageMonth): number {
  const rd = m.roamingDataMb ?? {};
  const rm = m.roamingMinutes ?? {};
  return monthCost(
    p,
    t,
    m.dataMb,
    m.voiceMinutes,
    m.sms,
    rd.nordicBaltic ?? 0,
    rd.eu ?? 0,
    rd.other ?? 0,
    rm.nordicBaltic ?? 0,
    rm.eu ?? 0,
    rm.other ?? 0,
  );
}

/** The speed a sized monthly data volume needs, Mbit/s. */
export function requiredSpeedMbps(
  sizedDataMb: number,
  tiers: readonly SpeedTier[] = DEFAULT_SPEED_TIERS,
): number {
  for (const tier of tiers) if (sizedDataMb <= tier.upToMb) return tier.minSpeedMbps;
  return tiers.length ? tiers[tiers.length - 1].minSpeedMbps : 0;
}

/**
 * The p-th percentile by the lower nearest rank (sorted ascending, index ⌊p·(n−1)⌋): below 1 it never
 * picks the single highest month of two or more, so one peak month does not size a plan.
 * Sorts `values` in place.
 */
export function lowerPercentile(values: number[] | Float64Array, p: number): number {
  const n = values.length;
  if (n === 0) return 0;
  values.sort((a, b) => a - b);
  return values[Math.floor(p * (n - 1))];
}
