import { describe, expect, it } from 'vitest';
import {
  CATALOGUE,
  ELISA_1000M,
  ELISA_10M,
  ELISA_50M,
  ELISA_50M_CONTRACT,
  ELISA_PERUS,
  TELIA_1000M,
  TELIA_PRO_EU,
} from './catalogue.fixture.js';
import {
  batchResultAt,
  bestPlan,
  costOfMonth,
  lowerPercentile,
  optimizeBatch,
  renderReason,
  requiredSpeedMbps,
  toColumns,
  unused,
} from './index.js';
import type { Plan, UsageMonth } from './index.js';

const GB = 1024;
const month = (dataGb: number, voiceMinutes = 0, sms = 0, extra: Partial<UsageMonth> = {}): UsageMonth => ({
  voiceMinutes,
  sms,
  dataMb: dataGb * GB,
  ...extra,
});
/** A subscription on `plan` with the same use every month for six months. */
const steady = (id: number, plan: Plan, usage: UsageMonth) => ({
  id,
  currentPlanId: plan.id,
  months: Array.from({ length: 6 }, () => usage),
});

describe('costOfMonth', () => {
  it('charges a flat rate plan its fee whatever the domestic use', () => {
    expect(costOfMonth(ELISA_50M, month(40, 2000, 500))).toBe(2090);
  });

  it('charges pay per use for every minute and SMS and for data beyond the included GB', () => {
    // 4.90 + 400 × 0.069 + 50 × 0.069 + 1 GB × 0.99 = 36.94 €
    expect(costOfMonth(ELISA_PERUS, month(2, 400, 50))).toBe(3694);
  });

  it('charges EU data beyond the fair-use allowance at the surcharge and non-included regions at the roaming tariff', () => {
    const trip = month(1, 0, 0, {
      roamingDataMb: { eu: 20 * GB, other: 1 * GB },
      roamingMinutes: { other: 10 },
    });
    // Elisa 10M includes 18 GB in the EU: 2 GB × 1.10 € + 1 GB × 9.90 € + 10 min × 1.99 €.
    expect(costOfMonth(ELISA_10M, trip)).toBe(1590 + 220 + 990 + 1990);
  });

  it('counts Nordic-Baltic and EU minutes as domestic ones on an including plan', () => {
    const m = month(0, 100, 0, { roamingMinutes: { eu: 50, nordicBaltic: 50 } });
    expect(costOfMonth(ELISA_PERUS, m)).toBe(Math.round(490 + 200 * 6.9));
    const notIncluded: Plan = { ...ELISA_PERUS, euIncluded: false, nordicBalticIncluded: false };
    expect(costOfMonth(notIncluded, m)).toBe(Math.round(490 + 50 * 99 + 50 * 99 + 100 * 6.9));
  });
});

describe('sizing', () => {
  it('takes the lower nearest-rank percentile, so one peak month of six is not the size', () => {
    expect(lowerPercentile([0.4, 8, 0.6, 0.8, 0.5, 0.7], 0.9)).toBe(0.8);
    expect(lowerPercentile([5], 0.9)).toBe(5);
  });

  it('maps a monthly data volume to the speed tier it needs', () => {
    expect(requiredSpeedMbps(0.96 * GB)).toBe(10);
    expect(requiredSpeedMbps(9.6 * GB)).toBe(50);
    expect(requiredSpeedMbps(40 * GB)).toBe(100);
    expect(requiredSpeedMbps(100 * GB)).toBe(300);
    expect(requiredSpeedMbps(200 * GB)).toBe(1000);
  });
});

describe('README worked examples', () => {
  it('1. a light data user on a 1000M plan moves to 10M, and one 8 GB peak month does not size it', () => {
    const sub = {
      id: 1,
      currentPlanId: ELISA_1000M.id,
      months: [0.6, 0.8, 0.7, 0.5, 0.4, 8].map((gb) => month(gb, 300, 20)),
    };
    const r = bestPlan(sub, CATALOGUE)!;
    expect(r).toMatchObject({
      currentPlanId: ELISA_1000M.id,
      currentMonthlyCents: 3390,
      bestPlanId: ELISA_10M.id,
      bestMonthlyCents: 1590,
      monthlySavingCents: 1800,
      yearlySavingCents: 21600,
      reason: { code: 'speed_oversized', params: { dataGb: 0.8, currentSpeedMbps: 1000, bestSpeedMbps: 10 } },
    });
    expect(renderReason(r.reason, 'en')).toBe('uses 0.8 GB a month on a 1000M plan; 10M covers it');
    expect(renderReason(r.reason, 'fi')).toBe('käyttää 0,8 Gt kuukaudessa 1000M-liittymällä; 10M riittää');
    // Sized on the peak month (9.6 GB with the buffer) it would have needed 50M: the contract-priced one.
    expect(bestPlan(sub, CATALOGUE, { percentile: 1 })!.bestPlanId).toBe(ELISA_50M_CONTRACT.id);
  });

  it('2. a pay-per-use line that costs more than a flat rate moves to the flat rate', () => {
    const r = bestPlan(steady(2, ELISA_PERUS, month(2, 400, 50)), CATALOGUE)!;
    expect(r).toMatchObject({
      currentMonthlyCents: 3694,
      bestPlanId: ELISA_10M.id,
      bestMonthlyCents: 1590,
      monthlySavingCents: 2104,
      yearlySavingCents: 25248,
      reason: { code: 'usage_charges', params: { usageCents: 3204, bestMonthlyCents: 1590 } },
    });
    expect(renderReason(r.reason, 'en')).toBe(
      'pays €32.04 a month for use on top of the fee; a plan at €15.90 a month covers the same use',
    );
    expect(renderReason(r.reason, 'fi')).toContain('maksaa käytöstä 32,04 € kuukaudessa');
  });

  it('2b. a light pay-per-use line stays where it is', () => {
    const r = bestPlan(steady(3, ELISA_PERUS, month(0.3, 30, 5)), CATALOGUE)!;
    expect(r.bestPlanId).toBe(ELISA_PERUS.id);
    expect(r.currentMonthlyCents).toBe(Math.round(490 + 35 * 6.9));
    expect(r.reason.code).toBe('already_best');
  });

  it('3. a heavy user with little EU roaming leaves Telia Pro EU for the 1000M plan with a smaller EU allowance', () => {
    const months = [0, 0, 2, 0, 0, 1].map((euGb) =>
      month(200, 500, 10, euGb ? { roamingDataMb: { eu: euGb * GB } } : {}),
    );
    const r = bestPlan({ id: 4, currentPlanId: TELIA_PRO_EU.id, months }, CATALOGUE)!;
    expect(r).toMatchObject({
      currentMonthlyCents: 4490,
      bestPlanId: TELIA_1000M.id,
      bestMonthlyCents: 3490,
      monthlySavingCents: 1000,
      reason: { code: 'eu_allowance_unused', params: { euGb: 1, currentEuGb: 60, bestEuGb: 40 } },
    });
    expect(renderReason(r.reason, 'en')).toBe(
      'uses 1.0 GB a month in the EU/EEA on a plan with 60.0 GB; 40.0 GB covers it',
    );
  });

  it("4. the client's contract price for the same plan wins over the list price", () => {
    const r = bestPlan(steady(5, ELISA_50M, month(12, 600, 40)), CATALOGUE)!;
    expect(r).toMatchObject({
      bestPlanId: ELISA_50M_CONTRACT.id,
      bestMonthlyCents: 1750,
      monthlySavingCents: 340,
      reason: { code: 'cheaper_fee', params: { contractPrice: 1 } },
    });
    expect(renderReason(r.reason, 'en')).toBe(
      'the same use costs €17.50 instead of €20.90 a month (contract price)',
    );
    expect(renderReason(r.reason, 'fi')).toBe(
      'sama käyttö maksaa 17,50 € eikä 20,90 € kuukaudessa (sopimushinta)',
    );
  });

  it('5. an unused subscription saves its whole fee', () => {
    const idle = month(0);
    const sub = { id: 6, currentPlanId: ELISA_50M_CONTRACT.id, months: [month(3, 100), idle, idle, idle] };
    const f = unused(sub, 3, CATALOGUE)!;
    expect(f).toMatchObject({
      monthlySavingCents: 1750,
      yearlySavingCents: 21000,
      reason: { code: 'unused' },
    });
    expect(renderReason(f.reason, 'en')).toBe(
      'no calls, SMS or data for 3 months; closing it saves the whole monthly fee of €17.50',
    );
    expect(unused(sub, 4, CATALOGUE)).toBeNull();
  });
});

describe('bestPlan rules', () => {
  it('keeps the current plan on a tie', () => {
    const twin: Plan = { ...ELISA_10M, id: 0, name: 'twin' };
    const sub = { id: 1, currentPlanId: ELISA_10M.id, months: [month(1, 10)] };
    expect(bestPlan(sub, [twin, ELISA_10M])!.bestPlanId).toBe(ELISA_10M.id);
  });

  it('only looks at the same operator and at plans considered for optimization', () => {
    const sub = { id: 1, currentPlanId: TELIA_1000M.id, months: [month(1, 10)] };
    const r = bestPlan(sub, CATALOGUE)!;
    expect(r.bestPlanId).toBe(11); // Telia 50M, not Elisa or DNA 10M
    const hidden = CATALOGUE.map((p) => (p.id === 11 ? { ...p, considerForOptimization: false } : p));
    expect(bestPlan(sub, hidden)!.bestPlanId).toBe(12);
  });

  it('never moves a roaming subscription to a domestic-only plan', () => {
    const domestic: Plan = {
      ...ELISA_10M,
      id: 99,
      monthlyFeeCents: 900,
      domesticOnly: true,
      euIncluded: false,
      nordicBalticIncluded: false,
    };
    const home = { id: 1, currentPlanId: ELISA_50M.id, months: [month(1, 10)] };
    expect(bestPlan(home, [ELISA_50M, domestic])!.bestPlanId).toBe(99);
    const trip = { ...home, months: [month(1, 10, 0, { roamingMinutes: { nordicBaltic: 5 } })] };
    expect(bestPlan(trip, [ELISA_50M, domestic])!.bestPlanId).toBe(ELISA_50M.id);
  });

  it('never picks a capped plan without extra data for use above its cap', () => {
    const capped: Plan = { ...ELISA_10M, id: 98, monthlyFeeCents: 900, dataMb: 2 * GB };
    const sub = { id: 1, currentPlanId: ELISA_10M.id, months: [month(1.8, 10)] };
    expect(bestPlan(sub, [ELISA_10M, capped])!.bestPlanId).toBe(ELISA_10M.id); // 1.8 GB × 1.2 > 2 GB
    expect(bestPlan(sub, [ELISA_10M, capped], { buffer: 0.1 })!.bestPlanId).toBe(98);
  });

  it('looks only at the last N months', () => {
    const sub = {
      id: 1,
      currentPlanId: ELISA_PERUS.id,
      months: [...Array(6).fill(month(0, 1000)), month(0, 1), month(0, 1)],
    };
    expect(bestPlan(sub, CATALOGUE, { months: 2 })!.bestPlanId).toBe(ELISA_PERUS.id);
    expect(bestPlan(sub, CATALOGUE, { months: 8 })!.bestPlanId).toBe(ELISA_10M.id);
  });

  it('counts negative, NaN and infinite quantities as none, in bestPlan and in the batch alike', () => {
    const bad = { voiceMinutes: -50, sms: NaN, dataMb: Infinity, roamingDataMb: { eu: -1 } };
    expect(costOfMonth(ELISA_PERUS, bad)).toBe(490);
    const sub = { id: 1, currentPlanId: ELISA_PERUS.id, months: [bad, month(0.5, 10)] };
    const r = bestPlan(sub, CATALOGUE)!;
    expect(r).toMatchObject({
      bestPlanId: ELISA_PERUS.id,
      currentMonthlyCents: Math.round((490 + 490 + 69) / 2),
    });
    const usage = toColumns([sub], CATALOGUE, 12);
    expect(batchResultAt(optimizeBatch(CATALOGUE, usage), usage, CATALOGUE, 0)).toEqual(r);
    expect(unused({ ...sub, months: [bad] }, 1, CATALOGUE)?.monthlySavingCents).toBe(490);
  });

  it('returns null without months or a known current plan, and rejects bad options', () => {
    expect(bestPlan({ id: 1, currentPlanId: 1, months: [] }, CATALOGUE)).toBeNull();
    expect(bestPlan({ id: 1, currentPlanId: 404, months: [month(1)] }, CATALOGUE)).toBeNull();
    expect(() => bestPlan({ id: 1, currentPlanId: 1, months: [month(1)] }, CATALOGUE, { months: 0 })).toThrow(
      RangeError,
    );
  });
});
