/**
 * The first demo client as a real company: Pohjola Rakennus Oy, a construction company with ~155
 * mobile subscriptions at Elisa and Telia, each on a plan of the plan master (seed/catalogue.ts) and
 * with usage that month by month fits a kind of user. Most are sensibly sized; some are the findings
 * the optimizer is there to find (docs/demo.md):
 *  - oversized: a 300M/1000M plan for a few GB a month (a 10M/50M/100M plan covers it);
 *  - unused: billed the monthly fee with no calls, SMS or data for the last months;
 *  - pay per use: a heavy caller on Perus, whose per-minute charges cost more than a flat rate;
 *  - an EU plan (Telia Pro EU) for people who hardly travel.
 *
 * Everything is drawn from seeded generators: the roster from the operator's seed, each month's use
 * from (seed, subscription, month), so the same invoice month always prints the same invoice and
 * month to month the numbers, users, plans and cost centers stay while the use varies.
 */
import {
  Random,
  personName,
  referenceNumber,
  type InvoiceModel,
  type ModelLine,
  type ModelSubscription,
} from '@kulu/invoices/generator';

/** A kind of user: what the subscription is on and how it is used. */
export type Finding = 'none' | 'oversized' | 'unused' | 'payPerUse' | 'euUnused';

interface Profile {
  finding: Finding;
  /** A plan of the plan master (the catalogue name). */
  plans: string[];
  /** Domestic minutes, SMS and data GB a month: [low, high]. */
  minutes: [number, number];
  sms: [number, number];
  dataGb: [number, number];
  /** Chance of a month with roaming in the Nordic/Baltic countries or the EU. */
  travel: number;
  /** How many subscriptions of this kind. */
  count: number;
}

/** The monthly fee printed on the invoice: the client's contract price where it has one (seed). */
export type FeeOf = (plan: string) => number;

export interface DemoOperatorPlan {
  businessId: string;
  operator: 'Elisa' | 'Telia';
  seed: number;
  profiles: Profile[];
  /** Cost centers (named by a word, printed as the code) with their weight. */
  costCenters: Array<[code: string, weight: number]>;
  fees: Record<string, number>;
}

const E10 = 'Elisa Yritysliittymä 4G (10M)';
const E50 = 'Elisa Yritysliittymä 4G (50M)';
const E100 = 'Elisa Yritysliittymä 5G (100M)';
const E300 = 'Elisa Yritysliittymä 5G (300M)';
const E1000 = 'Elisa Yritysliittymä 5G (1000M)';
const EPERUS = 'Elisa Yritysliittymä Perus';
const TPERUS = 'Telia Perus Yrityksille';
const T100 = 'Telia Yritys Mobiili 5G 100M';
const T300 = 'Telia Yritys Mobiili 5G 300M';
const T1000 = 'Telia Yritys Mobiili 5G 1000M';
const TEU = 'Telia Pro EU 5G 1000M';

/** Per-use prices of the Perus plans (catalogue), cents; Elisa's 6.9 c/min has a fraction. */
const PER_USE: Record<string, { minute: number; sms: number; freeMb: number | null; perGb: number }> = {
  [EPERUS]: { minute: 6.9, sms: 6.9, freeMb: 1024, perGb: 99 },
  [TPERUS]: { minute: 7, sms: 7, freeMb: null, perGb: 0 },
};

const COST_CENTERS: Array<[string, number]> = [
  ['Työmaat', 55],
  ['Myynti', 14],
  ['Suunnittelu', 12],
  ['Hallinto', 11],
  ['Hankinta', 8],
];

const p = (
  finding: Finding,
  count: number,
  plans: string[],
  minutes: [number, number],
  sms: [number, number],
  dataGb: [number, number],
  travel = 0.08,
): Profile => ({ finding, count, plans, minutes, sms, dataGb, travel });

/**
 * Pohjola Rakennus: the sizing rules these profiles rely on are the optimizer's (packages/optimizer
 * README): sized data = the 90th percentile of 6 months + 20 %; up to 5 GB → 10M, 25 GB → 50M,
 * 60 GB → 100M, 150 GB → 300M, more → 1000M. A sensibly sized user keeps enough calls that Perus
 * (per minute) is dearer than the flat rate.
 */
export const DEMO_COMPANY: DemoOperatorPlan[] = [
  {
    businessId: '2345678-0',
    operator: 'Elisa',
    seed: 4101,
    costCenters: COST_CENTERS,
    // list prices; 50M and 100M at the client's contract price (DEMO_CONTRACT_PRICES)
    fees: { [E10]: 1590, [E50]: 1750, [E100]: 1990, [E300]: 2790, [E1000]: 3390, [EPERUS]: 490 },
    profiles: [
      p('none', 26, [E10], [250, 700], [10, 60], [0.5, 3.4]),
      p('none', 20, [E50], [120, 600], [5, 50], [6, 16]),
      p('none', 14, [E100], [100, 500], [5, 40], [27, 42], 0.15),
      p('none', 6, [E300], [80, 400], [5, 30], [62, 100]),
      p('none', 4, [E1000], [80, 400], [5, 30], [150, 230]),
      p('none', 8, [EPERUS], [8, 45], [0, 10], [0.1, 0.8], 0),
      p('oversized', 8, [E1000, E300], [260, 650], [10, 50], [0.6, 2.6]),
      p('oversized', 6, [E1000, E300], [150, 500], [5, 40], [7, 15]),
      p('unused', 6, [E10, E50, E100, E1000], [0, 0], [0, 0], [0, 0], 0),
      p('payPerUse', 2, [EPERUS], [480, 720], [40, 90], [2, 3.5], 0),
    ],
  },
  {
    businessId: '2345678-0',
    operator: 'Telia',
    seed: 4102,
    costCenters: COST_CENTERS,
    // 100M at the client's contract price
    fees: { [TPERUS]: 690, [T100]: 2040, [T300]: 2790, [T1000]: 3490, [TEU]: 4490 },
    profiles: [
      p('none', 28, [T100], [100, 600], [5, 50], [6, 40], 0.12),
      p('none', 4, [T300], [80, 400], [5, 30], [62, 100]),
      p('none', 3, [T1000], [80, 400], [5, 30], [150, 210]),
      p('none', 4, [TPERUS], [8, 50], [0, 10], [0.2, 2.5], 0),
      p('oversized', 8, [T1000, T300], [260, 600], [10, 50], [0.8, 12]),
      p('euUnused', 2, [TEU], [200, 500], [10, 40], [160, 230], 0.2),
      p('unused', 4, [T100, T300], [0, 0], [0, 0], [0, 0], 0),
      p('payPerUse', 2, [TPERUS], [420, 650], [30, 80], [1, 3], 0),
    ],
  },
];

/** One subscription of the roster. */
export interface DemoSubscription {
  index: number;
  phone: string;
  userName: string;
  costCenter: string;
  plan: string;
  finding: Finding;
  /** The first invoice month (index into the demo months) it appears on; a few join mid-year. */
  firstMonth: number;
  /** Unused: the month from which it has no use (some never had any). */
  idleFrom: number;
  profile: Profile;
}

const rosters = new Map<DemoOperatorPlan, DemoSubscription[]>();

/** The subscriptions of one client and operator, the same on every call. */
export function demoRoster(plan: DemoOperatorPlan, months: number): DemoSubscription[] {
  const cached = rosters.get(plan);
  if (cached) return cached;
  const rng = new Random(plan.seed);
  const phones = new Set<string>();
  const names = new Set<string>();
  const totalWeight = plan.costCenters.reduce((s, [, w]) => s + w, 0);
  const centerOf = () => {
    let x = rng.next() * totalWeight;
    for (const [code, w] of plan.costCenters) if ((x -= w) < 0) return code;
    return plan.costCenters[0][0];
  };
  const out: DemoSubscription[] = [];
  for (const profile of plan.profiles) {
    for (let k = 0; k < profile.count; k++) {
      let phone: string;
      do phone = `+358${rng.pick(['40', '44', '45', '50'])}${rng.digits(7)}`;
      while (phones.has(phone));
      phones.add(phone);
      let userName: string;
      do userName = personName(rng);
      while (names.has(userName));
      names.add(userName);
      const neverUsed = profile.finding === 'unused' && rng.chance(0.3);
      out.push({
        index: out.length,
        phone,
        userName,
        // heavy travellers sell; the rest by the company's weights
        costCenter: profile.finding === 'euUnused' ? 'Myynti' : centerOf(),
        plan: rng.pick(profile.plans),
        finding: profile.finding,
        // sensibly sized users may join mid-year; findings need the whole year of history
        firstMonth: profile.finding === 'none' && rng.chance(0.06) ? rng.int(1, months - 4) : 0,
        idleFrom: neverUsed ? 0 : months - rng.int(4, 6),
        profile,
      });
    }
  }
  rosters.set(plan, out);
  return out;
}

/** Whole-number mixing of the seed, subscription and month into one generator seed. */
function monthSeed(seed: number, sub: number, month: number): number {
  return (
    (Math.imul(seed, 0x01000193) ^ Math.imul(sub + 1, 0x9e3779b1) ^ Math.imul(month + 7, 0x85ebca6b)) >>> 0
  );
}

/** round(x), half away from zero, for cents that carry a fraction (6.9 c × minutes). */
const roundCents = (x: number) => Math.sign(x) * Math.floor(Math.abs(x) + 0.5);

interface Period {
  start: string;
  end: string;
}

function monthPeriod(y: number, m: number): Period {
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const mm = String(m).padStart(2, '0');
  return { start: `${y}-${mm}-01`, end: `${y}-${mm}-${String(last).padStart(2, '0')}` };
}

function usageLines(sub: DemoSubscription, seed: number, month: number, period: Period): ModelLine[] {
  if (sub.finding === 'unused' && month >= sub.idleFrom) return [];
  const rng = new Random(monthSeed(seed, sub.index, month));
  const { profile } = sub;
  const perUse = PER_USE[sub.plan];
  const between = ([lo, hi]: [number, number]) => lo + rng.next() * (hi - lo);
  const lines: ModelLine[] = [];
  const voice = (label: string, region: ModelLine['region'], minutes: number) => {
    const seconds = Math.max(1, Math.round(minutes * 60));
    const amountCents = perUse && region === 'domestic' ? roundCents((seconds / 60) * perUse.minute) : 0;
    lines.push({
      label,
      kind: 'voice',
      category: 'voice',
      region,
      period,
      seconds,
      calls: Math.max(1, Math.round(minutes / rng.float(2.5, 4.5))),
      unitPriceCents: null,
      amountCents,
    });
  };
  const data = (label: string, region: ModelLine['region'], gb: number) => {
    const gbTenths = Math.max(1, Math.round(gb * 10));
    const mbTenths = gb >= 1 ? gbTenths * 1024 : Math.max(1, Math.round(gb * 10240));
    const overMb = perUse?.freeMb == null ? 0 : Math.max(0, mbTenths / 10 - perUse.freeMb);
    lines.push({
      label,
      kind: 'data',
      category: 'data',
      region,
      period,
      mbTenths,
      gbTenths: gb >= 1 ? gbTenths : undefined,
      unitPriceCents: null,
      amountCents: perUse ? roundCents((overMb / 1024) * perUse.perGb) : 0,
    });
  };
  // Holidays: July and December are quieter.
  const [, m] = period.start.split('-').map(Number);
  const season = m === 7 ? 0.6 : m === 12 ? 0.85 : 1;
  voice('Puhelut kotimaahan', 'domestic', between(profile.minutes) * season);
  const sms = Math.round(between(profile.sms) * season);
  if (sms > 0) {
    lines.push({
      label: 'Tekstiviestit',
      kind: 'message',
      category: 'sms',
      region: 'domestic',
      period,
      pieces: sms,
      unitPriceCents: null,
      amountCents: perUse ? roundCents(sms * perUse.sms) : 0,
    });
  }
  data('Datasiirto kotimaa', 'domestic', between(profile.dataGb) * (m === 7 ? 0.8 : 1));
  if (rng.chance(profile.travel)) {
    if (rng.chance(0.5)) {
      voice('Puhelut Pohjoismaissa ja Baltiassa', 'nordic_baltic', rng.float(10, 90));
      data('Datasiirto Pohjoismaat ja Baltia', 'nordic_baltic', rng.float(0.2, 2.5));
    } else {
      voice('Puhelut EU/ETA-alueella', 'eu', rng.float(10, 120));
      data('Datasiirto EU/ETA', 'eu', rng.float(0.3, 4));
    }
  }
  return lines;
}

/**
 * The invoice of one demo client and operator for one month (index into the demo months; the
 * invoice date in that month): the monthly fees of the month and the use of the month before.
 */
export function demoInvoiceModel(
  plan: DemoOperatorPlan,
  customer: { name: string; address: string[] },
  months: number,
  month: number,
  invoiceDate: string,
): InvoiceModel {
  const [y, m] = invoiceDate.split('-').map(Number);
  const own = monthPeriod(y, m);
  const prev = m === 1 ? monthPeriod(y - 1, 12) : monthPeriod(y, m - 1);
  const head = new Random(plan.seed * 31 + 7);
  const customerNumber = `${head.int(1, 9)}${head.digits(6)}`;
  const invoiceBase = `${head.int(1, 9)}${head.digits(5)}`;
  const subscriptions: ModelSubscription[] = demoRoster(plan, months)
    .filter((s) => s.firstMonth <= month)
    .map((s) => ({
      phone: s.phone,
      userName: s.userName,
      costCenter: { code: s.costCenter, name: '' },
      lines: [
        {
          label: s.plan,
          kind: 'fee',
          category: 'monthly_fee',
          region: null,
          period: own,
          pieces: 1,
          unitPriceCents: plan.fees[s.plan],
          amountCents: plan.fees[s.plan],
        },
        // a subscription that joins mid-year has no use of the month before it started
        ...(s.firstMonth === 0 || s.firstMonth < month ? usageLines(s, plan.seed, month, prev) : []),
      ],
    }));
  if (month === months - 1) withAlertCases(plan, months, subscriptions, prev);
  if (plan.operator === 'Telia') {
    // Telia groups the specification by cost center, in the company's order.
    const order = plan.costCenters.map(([c]) => c);
    subscriptions.sort((a, b) => order.indexOf(a.costCenter!.code) - order.indexOf(b.costCenter!.code));
  }
  const due = new Date(`${invoiceDate}T00:00:00Z`);
  due.setUTCDate(due.getUTCDate() + 14);
  return {
    invoiceNumber: `${invoiceBase}${String(y % 100).padStart(2, '0')}${String(m).padStart(2, '0')}`,
    invoiceDate,
    dueDate: due.toISOString().slice(0, 10),
    customerNumber,
    customerName: customer.name,
    customerAddress: customer.address,
    businessId: plan.businessId,
    referenceNumber: referenceNumber(new Random(plan.seed * 97 + month)),
    vatTenths: invoiceDate < '2024-09-01' ? 240 : 255,
    subscriptions,
    otherLines: [],
  };
}

/**
 * The alerts' demo cases (issue 26, docs/demo.md), on the latest Elisa invoice: two sensibly sized
 * Työmaat phones (so that the Tampere client user sees them too), one with a roaming shock outside
 * the EU (€147.00 of data at €4.90/MB and €35.82 of calls at €1.99/min: a cost jump and a roaming
 * alert), one with service-number calls and paid services (€27.75: a service-number alert).
 */
function withAlertCases(
  plan: DemoOperatorPlan,
  months: number,
  subscriptions: ModelSubscription[],
  period: Period,
): void {
  if (plan.operator !== 'Elisa') return;
  const steady = demoRoster(plan, months).filter(
    (s) => s.finding === 'none' && s.firstMonth === 0 && s.costCenter === 'Työmaat',
  );
  const lines = (phone: string | undefined) => subscriptions.find((s) => s.phone === phone)?.lines;
  lines(steady[0]?.phone)?.push(
    {
      label: 'Roaming puhelut muualla',
      kind: 'voice',
      category: 'voice',
      region: 'world',
      period,
      seconds: 1080,
      calls: 7,
      unitPriceCents: 199,
      amountCents: 3582,
    },
    {
      label: 'Datasiirto muualla',
      kind: 'data',
      category: 'data',
      region: 'world',
      period,
      mbTenths: 300,
      unitPriceCents: 490,
      amountCents: 14700,
    },
  );
  lines(steady[1]?.phone)?.push(
    {
      label: 'Palvelunumerot',
      kind: 'serviceMinutes',
      category: 'service_number',
      region: null,
      period,
      seconds: 1500,
      calls: 4,
      unitPriceCents: 99,
      amountCents: 2475,
    },
    {
      label: 'Maksulliset palvelut',
      kind: 'servicePieces',
      category: 'service_number',
      region: null,
      period,
      pieces: 3,
      unitPriceCents: 100,
      amountCents: 300,
    },
  );
}
