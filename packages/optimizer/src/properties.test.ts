import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  batchResultAt,
  bestPlan,
  costOfMonth,
  optimizeBatch,
  requiredSpeedMbps,
  sizeUsage,
  suits,
  toColumns,
} from './index.js';
import type { Plan, Subscription, UsageMonth } from './index.js';

const OPTIONS = { months: 6, percentile: 0.9, buffer: 0.2 };

const planArb = (id: number, operatorId: fc.Arbitrary<number> = fc.constant(1)): fc.Arbitrary<Plan> =>
  fc.record({
    id: fc.constant(id),
    operatorId,
    name: fc.constant(`plan ${id}`),
    // Fees from a short list too, so that ties happen.
    monthlyFeeCents: fc.oneof(fc.constantFrom(1590, 2090), fc.integer({ min: 0, max: 6000 })),
    dataMb: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    speedMbps: fc.constantFrom(10, 50, 100, 300, 1000),
    voiceMinutes: fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }),
    sms: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
    perMinuteCents: fc.oneof(
      fc.constant(0),
      fc.integer({ min: 0, max: 200 }).map((x) => x / 10),
    ),
    perSmsCents: fc.integer({ min: 0, max: 200 }).map((x) => x / 10),
    exceedingDataCentsPerGb: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
    euDataGb: fc.integer({ min: 0, max: 600 }).map((x) => x / 10),
    nordicBalticIncluded: fc.boolean(),
    euIncluded: fc.boolean(),
    domesticOnly: fc.boolean(),
    considerForOptimization: fc.boolean(),
    customerSpecific: fc.boolean(),
  });

const plansArb = (operators = 1) =>
  fc
    .integer({ min: 1, max: 8 })
    .chain((n) =>
      fc.tuple(
        ...Array.from({ length: n }, (_, i) => planArb(i + 1, fc.integer({ min: 1, max: operators }))),
      ),
    );

const amount = (max: number) =>
  fc.oneof(fc.constant(0), fc.integer({ min: 0, max }), fc.double({ min: 0, max, noNaN: true }));
const monthArb: fc.Arbitrary<UsageMonth> = fc.record({
  voiceMinutes: amount(2000),
  sms: amount(300),
  dataMb: amount(200_000),
  roamingDataMb: fc.record(
    { nordicBaltic: amount(5000), eu: amount(40_000), other: amount(2000) },
    { requiredKeys: [] },
  ),
  roamingMinutes: fc.record(
    { nordicBaltic: amount(200), eu: amount(200), other: amount(100) },
    { requiredKeys: [] },
  ),
});

const caseArb = (operators = 1) =>
  plansArb(operators).chain((plans) =>
    fc.record({
      plans: fc.constant(plans as Plan[]),
      sub: fc.record({
        id: fc.constant(1),
        currentPlanId: fc.integer({ min: 1, max: plans.length }),
        months: fc.array(monthArb, { minLength: 1, maxLength: 12 }),
      }),
    }),
  );

const windowCost = (plan: Plan, sub: Subscription) =>
  sub.months.slice(-OPTIONS.months).reduce((s, m) => s + costOfMonth(plan, m), 0);

describe('optimizer properties', () => {
  it('the best plan never costs more than the current one', () => {
    fc.assert(
      fc.property(caseArb(), ({ plans, sub }) => {
        const r = bestPlan(sub, plans, OPTIONS)!;
        expect(r.bestMonthlyCents).toBeLessThanOrEqual(r.currentMonthlyCents);
        expect(r.monthlySavingCents).toBeGreaterThanOrEqual(0);
        expect(
          windowCost(
            plans.find((p) => p.id === r.bestPlanId)!,
            sub,
          ),
        ).toBeLessThanOrEqual(
          windowCost(
            plans.find((p) => p.id === sub.currentPlanId)!,
            sub,
          ),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('a suitable plan cheaper in every month is never passed over', () => {
    fc.assert(
      fc.property(caseArb(), fc.integer({ min: 1, max: 500 }), ({ plans, sub }, cut) => {
        const before = bestPlan(sub, plans, OPTIONS)!;
        const was = plans.find((p) => p.id === before.bestPlanId)!;
        // The same plan with a lower fee costs less in every month.
        const cheaper: Plan = {
          ...was,
          id: 100,
          monthlyFeeCents: was.monthlyFeeCents - cut,
          considerForOptimization: true,
        };
        const sizing = sizeUsage(sub.months.slice(-OPTIONS.months), OPTIONS.percentile, OPTIONS.buffer);
        fc.pre(suits(cheaper, sizing, requiredSpeedMbps(sizing.sizedDataMb)));
        for (const m of sub.months) expect(costOfMonth(cheaper, m)).toBeLessThan(costOfMonth(was, m));
        const after = bestPlan(sub, [...plans, cheaper], OPTIONS)!;
        expect(after.bestPlanId).not.toBe(was.id);
        expect(
          windowCost(
            plans.concat(cheaper).find((p) => p.id === after.bestPlanId)!,
            sub,
          ),
        ).toBeLessThanOrEqual(windowCost(cheaper, sub));
      }),
      { numRuns: 300 },
    );
  });

  it('adding a plan never raises the best cost', () => {
    fc.assert(
      fc.property(caseArb(), planArb(100), ({ plans, sub }, extra) => {
        const before = bestPlan(sub, plans, OPTIONS)!;
        const after = bestPlan(sub, [...plans, extra], OPTIONS)!;
        expect(after.bestMonthlyCents).toBeLessThanOrEqual(before.bestMonthlyCents);
      }),
      { numRuns: 300 },
    );
  });

  it('removing usage never raises the best cost', () => {
    const fields = ['voiceMinutes', 'sms', 'dataMb'] as const;
    fc.assert(
      fc.property(
        caseArb(),
        fc.nat(),
        fc.constantFrom(...fields, 'roaming'),
        fc.double({ min: 0, max: 1, noNaN: true }),
        ({ plans, sub }, at, field, keep) => {
          const before = bestPlan(sub, plans, OPTIONS)!;
          const months = sub.months.map((m) => ({ ...m }));
          const i = at % months.length;
          if (field === 'roaming') months[i] = { ...months[i], roamingDataMb: {}, roamingMinutes: {} };
          else months[i] = { ...months[i], [field]: months[i][field] * keep };
          const after = bestPlan({ ...sub, months }, plans, OPTIONS)!;
          expect(after.bestMonthlyCents).toBeLessThanOrEqual(before.bestMonthlyCents);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the columnar batch gives the same answers as bestPlan', () => {
    fc.assert(
      fc.property(
        plansArb(3),
        fc.array(
          fc.record({
            currentPlanId: fc.integer({ min: 0, max: 9 }),
            months: fc.array(monthArb, { maxLength: 9 }),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        fc.constantFrom(1, 3, 6, 12),
        (plans, raw, months) => {
          const subs: Subscription[] = raw.map((s, i) => ({ id: i + 1, ...s }));
          const options = { ...OPTIONS, months };
          const usage = toColumns(subs, plans, 8); // shorter than some histories: keeps the latest 8
          const batch = optimizeBatch(plans, usage, options);
          subs.forEach((sub, s) => {
            const single = bestPlan({ ...sub, months: sub.months.slice(-8) }, plans, options);
            expect(batchResultAt(batch, usage, plans, s)).toEqual(single);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
