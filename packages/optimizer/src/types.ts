/**
 * The optimizer's inputs and outputs. Money is in cents: fees and results are integers, unit prices
 * may carry fractions of a cent (0.069 € a minute = 6.9 cents). `null` in an allowance means unlimited.
 */

/** A price plan as the optimizer sees it (one row of the plan master, priced for one client). */
export interface Plan {
  id: number;
  operatorId: number;
  name: string;
  /** Monthly fee in integer cents: the client's contract price where it has one, else the list price. */
  monthlyFeeCents: number;
  /** Included domestic data per month in MB; null = unlimited (flat rate at the plan's speed). */
  dataMb: number | null;
  /** Data speed, Mbit/s. */
  speedMbps: number;
  /** Included domestic voice minutes per month (packet size); null = unlimited. */
  voiceMinutes: number | null;
  /** Included domestic SMS per month; null = unlimited. */
  sms: number | null;
  /** Cents per minute beyond the included minutes (pay per use: every minute). */
  perMinuteCents: number;
  /** Cents per SMS beyond the included SMS. */
  perSmsCents: number;
  /**
   * Cents per GB of domestic data beyond `dataMb`; null = the plan sells no extra data (it is throttled
   * or blocked), so it only suits a subscription whose sized data use fits `dataMb`.
   */
  exceedingDataCentsPerGb: number | null;
  /** EU/EEA fair-use data allowance per month, GB (used when `euIncluded`). */
  euDataGb: number;
  /** Use in the Nordic and Baltic countries is priced as at home (minutes count as domestic, data against the EU allowance). */
  nordicBalticIncluded: boolean;
  /** Roam like at home in the EU/EEA (minutes count as domestic, data within `euDataGb`). */
  euIncluded: boolean;
  /** The plan works in Finland only: it never suits a subscription that roams. */
  domesticOnly: boolean;
  /** The plan master's *consider for optimization*; the current plan is always compared. */
  considerForOptimization: boolean;
  /** A client's own (customer-specific) plan row rather than a general one. */
  customerSpecific: boolean;
}

/** Roaming regions of the usage (domestic use has its own fields). */
export type RoamingRegion = 'nordicBaltic' | 'eu' | 'other';
export const ROAMING_REGIONS: readonly RoamingRegion[] = ['nordicBaltic', 'eu', 'other'];

/** One month of a subscription's use, from the invoice lines (quantity + unit + region). */
export interface UsageMonth {
  /** Domestic voice minutes. */
  voiceMinutes: number;
  /** Domestic SMS. */
  sms: number;
  /** Domestic data, MB. */
  dataMb: number;
  /** Roaming data by region, MB (missing regions are 0). */
  roamingDataMb?: Partial<Record<RoamingRegion, number>>;
  /** Roaming voice minutes by region (missing regions are 0). */
  roamingMinutes?: Partial<Record<RoamingRegion, number>>;
}

export interface Subscription {
  id: number;
  currentPlanId: number;
  /** Months of use, oldest first; the optimizer looks at the last N. */
  months: UsageMonth[];
}

/**
 * What roaming costs outside a plan's inclusions, cents. The same for every plan of an operator, so it
 * moves costs but rarely the choice; defaults are illustrative Finnish business prices (VAT 0 %).
 */
export interface RoamingTariff {
  /** EU/EEA data beyond the plan's fair-use allowance, cents per GB (the regulated surcharge). */
  euOverAllowanceCentsPerGb: number;
  /** Data per GB where the plan does not include the region. */
  nordicBalticDataCentsPerGb: number;
  euDataCentsPerGb: number;
  otherDataCentsPerGb: number;
  /** Minutes where the plan does not include the region. */
  nordicBalticMinuteCents: number;
  euMinuteCents: number;
  otherMinuteCents: number;
}

export const DEFAULT_ROAMING_TARIFF: RoamingTariff = {
  euOverAllowanceCentsPerGb: 110,
  nordicBalticDataCentsPerGb: 990,
  euDataCentsPerGb: 990,
  otherDataCentsPerGb: 990,
  nordicBalticMinuteCents: 99,
  euMinuteCents: 99,
  otherMinuteCents: 199,
};

/** Data volume (sized, MB a month) up to which a speed suffices; the last tier should be unbounded. */
export interface SpeedTier {
  upToMb: number;
  minSpeedMbps: number;
}

/**
 * The speed a data volume needs (documented in the README): light use runs on 10M, heavy use needs
 * the fast tiers. A plan suits a subscription only if its speed is at least the tier's.
 */
export const DEFAULT_SPEED_TIERS: readonly SpeedTier[] = [
  { upToMb: 5 * 1024, minSpeedMbps: 10 },
  { upToMb: 25 * 1024, minSpeedMbps: 50 },
  { upToMb: 60 * 1024, minSpeedMbps: 100 },
  { upToMb: 150 * 1024, minSpeedMbps: 300 },
  { upToMb: Infinity, minSpeedMbps: 1000 },
];

export interface OptimizeOptions {
  /** How many of the latest months to look at (the client's setting). Default 6. */
  months?: number;
  /** The percentile of monthly use that sizes the plan, 0..1. Default 0.9. */
  percentile?: number;
  /** Head-room on top of the percentile, as a fraction (0.2 = 20 %). Default 0.2. */
  buffer?: number;
  speedTiers?: readonly SpeedTier[];
  roamingTariff?: RoamingTariff;
}

export type ReasonCode =
  'already_best' | 'speed_oversized' | 'usage_charges' | 'eu_allowance_unused' | 'cheaper_fee' | 'unused';

export interface Reason {
  code: ReasonCode;
  /** Numbers for the sentence; money in cents, data in GB (one decimal). */
  params: Record<string, number>;
}

export interface BestPlanResult {
  subscriptionId: number;
  currentPlanId: number;
  /** Mean monthly cost over the months looked at, integer cents. */
  currentMonthlyCents: number;
  bestPlanId: number;
  bestMonthlyCents: number;
  monthlySavingCents: number;
  yearlySavingCents: number;
  reason: Reason;
}

export interface UnusedFinding {
  subscriptionId: number;
  currentPlanId: number;
  /** The whole monthly fee, integer cents. */
  monthlySavingCents: number;
  yearlySavingCents: number;
  reason: Reason;
}
