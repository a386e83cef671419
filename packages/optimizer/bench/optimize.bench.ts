/**
 * `npm run bench -- optimizer`: the best plan for 100,000 subscriptions × 60 plans × 12 months with the
 * columnar batch (`optimizeBatch`), on one core (the optimizer is plain single-threaded JS).
 *
 * All 60 plans belong to one operator, so every subscription is weighed against all of them (the worst
 * case; real clients split plans over three operators). Plans: flat rates 10M–1000M at list and
 * contract prices, pay per use, capped plans with extra data, packet plans. Usage is generated with a
 * fixed seed: light and heavy data users, voice and SMS, unused lines and some roaming; current plans are
 * drawn at random, so most subscriptions get a change (the savings figure is not a market estimate).
 * Reports the median of BENCH_RUNS (default 5) runs after a warm-up, and checks 2,000 subscriptions
 * against the per-subscription `bestPlan`.
 *
 * Env: BENCH_RUNS, BENCH_SUBSCRIPTIONS (default 100000).
 */
import { allocateUsage, batchResultAt, bestPlan, optimizeBatch } from '../src/index.js';
import type { Plan, Subscription, UsageColumns } from '../src/index.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SUBS = Number(process.env.BENCH_SUBSCRIPTIONS ?? 100_000);
const PLANS = 60;
const MONTHS = 12;
const TARGET_MS = 1000;

function mulberry32(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(20261123);
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];

function makePlans(): Plan[] {
  const speeds = [10, 50, 100, 300, 1000];
  const fees = [1590, 2090, 2390, 2790, 3390];
  const plans: Plan[] = [];
  for (let id = 1; id <= PLANS; id++) {
    const tier = (id - 1) % 5;
    const kind = Math.floor((id - 1) / 5) % 4; // flat, contract flat, capped / packet, pay per use
    const base: Plan = {
      id,
      operatorId: 1,
      name: `plan ${id}`,
      monthlyFeeCents: fees[tier] - Math.floor(rnd() * 300),
      dataMb: null,
      speedMbps: speeds[tier],
      voiceMinutes: null,
      sms: null,
      perMinuteCents: 0,
      perSmsCents: 0,
      exceedingDataCentsPerGb: null,
      euDataGb: 5 + tier * 10,
      nordicBalticIncluded: true,
      euIncluded: true,
      domesticOnly: false,
      considerForOptimization: rnd() < 0.9,
      customerSpecific: kind === 1,
    };
    if (kind === 2)
      plans.push({
        ...base,
        dataMb: (2 + tier * 10) * 1024,
        exceedingDataCentsPerGb: 99,
        voiceMinutes: 300,
        perMinuteCents: 6.9,
        perSmsCents: 6.9,
        sms: 100,
        monthlyFeeCents: base.monthlyFeeCents - 500,
      });
    else if (kind === 3)
      plans.push({
        ...base,
        monthlyFeeCents: 490 + tier * 100,
        dataMb: 1024,
        exceedingDataCentsPerGb: 99,
        voiceMinutes: 0,
        sms: 0,
        perMinuteCents: 6.9,
        perSmsCents: 6.9,
        speedMbps: 10 * (tier + 1),
        domesticOnly: tier === 0,
      });
    else plans.push(base);
  }
  return plans;
}

function makeUsage(plans: Plan[]): UsageColumns {
  const u = allocateUsage(SUBS, MONTHS);
  for (let s = 0; s < SUBS; s++) {
    u.subscriptionId[s] = s + 1;
    u.currentPlan[s] = Math.floor(rnd() * plans.length);
    u.monthCount[s] = rnd() < 0.1 ? 1 + Math.floor(rnd() * MONTHS) : MONTHS;
    const profile = pick(['unused', 'light', 'light', 'medium', 'heavy'] as const);
    const gb = { unused: 0, light: 1, medium: 10, heavy: 80 }[profile];
    const minutes = { unused: 0, light: 100, medium: 400, heavy: 900 }[profile];
    const traveller = rnd() < 0.3;
    for (let m = 0; m < u.monthCount[s]; m++) {
      const i = s * MONTHS + m;
      const peak = rnd() < 0.08 ? 4 : 1;
      u.dataMb[i] = Math.round(gb * 1024 * peak * (0.5 + rnd()));
      u.voiceMinutes[i] = Math.round(minutes * (0.5 + rnd()));
      u.sms[i] = Math.round((minutes / 10) * rnd());
      if (traveller && rnd() < 0.25) {
        u.euDataMb[i] = Math.round(rnd() * 8000);
        u.nbDataMb[i] = Math.round(rnd() * 2000);
        u.euMinutes[i] = Math.round(rnd() * 60);
        u.nbMinutes[i] = Math.round(rnd() * 30);
        if (rnd() < 0.2) u.otherMinutes[i] = Math.round(rnd() * 10);
      }
    }
  }
  return u;
}

function subscriptionAt(u: UsageColumns, plans: Plan[], s: number): Subscription {
  const months = Array.from({ length: u.monthCount[s] }, (_, m) => {
    const i = s * u.stride + m;
    return {
      voiceMinutes: u.voiceMinutes[i],
      sms: u.sms[i],
      dataMb: u.dataMb[i],
      roamingDataMb: { nordicBaltic: u.nbDataMb[i], eu: u.euDataMb[i], other: u.otherDataMb[i] },
      roamingMinutes: { nordicBaltic: u.nbMinutes[i], eu: u.euMinutes[i], other: u.otherMinutes[i] },
    };
  });
  return { id: u.subscriptionId[s], currentPlanId: plans[u.currentPlan[s]].id, months };
}

const plans = makePlans();
const usage = makeUsage(plans);
const options = { months: MONTHS, percentile: 0.9, buffer: 0.2 };

optimizeBatch(plans, usage, options); // warm-up
const times: number[] = [];
let result = optimizeBatch(plans, usage, options);
for (let r = 0; r < RUNS; r++) {
  const t0 = performance.now();
  result = optimizeBatch(plans, usage, options);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];

let changes = 0;
let saving = 0;
for (let s = 0; s < SUBS; s++) {
  if (result.bestPlan[s] >= 0 && result.bestPlan[s] !== usage.currentPlan[s]) changes++;
  saving += result.currentMonthlyCents[s] - result.bestMonthlyCents[s];
}

const CHECK = Math.min(2000, SUBS);
const t1 = performance.now();
let mismatches = 0;
for (let s = 0; s < CHECK; s++) {
  const single = bestPlan(subscriptionAt(usage, plans, s), plans, options);
  if (JSON.stringify(single) !== JSON.stringify(batchResultAt(result, usage, plans, s))) mismatches++;
}
const perSubMs = (performance.now() - t1) / CHECK;

console.log(
  `optimizer: ${SUBS.toLocaleString('en')} subscriptions × ${PLANS} plans × ${MONTHS} months, batch median ${median.toFixed(0)} ms ` +
    `(min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)}; target < ${TARGET_MS} ms) ${median < TARGET_MS ? 'OK' : 'SLOW'}`,
);
console.log(
  `  ${changes.toLocaleString('en')} plan changes, potential saving ${(saving / 100).toLocaleString('en', { maximumFractionDigits: 0 })} € a month; ` +
    `per-subscription bestPlan ${(perSubMs * 1000).toFixed(0)} µs each (≈ ${((perSubMs * SUBS) / 1000).toFixed(1)} s for all), ` +
    `${mismatches} of ${CHECK} checked differ from the batch`,
);
if (mismatches > 0) process.exit(1);
