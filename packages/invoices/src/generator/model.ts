/**
 * The operator-neutral content of a generated invoice: who, which subscriptions, which lines, all
 * amounts in integer cents. The print layouts (layouts.ts) decide how each operator prints it and
 * what the parser must therefore give back.
 */
import type { LineCategory, LineRegion } from '../types.js';
import {
  ADD_ONS,
  COST_CENTERS,
  PLANS,
  address,
  businessId,
  companyName,
  personName,
  referenceNumber,
} from './data.js';
import { Random } from './random.js';

export type LineKind =
  'fee' | 'voice' | 'message' | 'data' | 'serviceMinutes' | 'servicePieces' | 'oneOff' | 'credit';

export interface ModelLine {
  label: string;
  kind: LineKind;
  category: LineCategory;
  region: LineRegion | null;
  period: { start: string; end: string } | null;
  /** voice / serviceMinutes */
  seconds?: number;
  calls?: number;
  /** message / servicePieces */
  pieces?: number;
  /** data, in tenths of MB; `gbTenths` set when the amount is a whole tenth of a GB (printable as GB). */
  mbTenths?: number;
  gbTenths?: number;
  /** The per-unit price where the line is priced (usage beyond the plan, fees); null when included. */
  unitPriceCents: number | null;
  amountCents: number;
  /** The line's own VAT rate (tenths of a percent) where it is not the invoice's (`withMixedVat`). */
  vatTenths?: number;
  /**
   * A quantity in a unit as an e-invoice states it (`withOddUnits`): `MON`, `pv`, `DAY`, `vrk`, `ZZ`,
   * `KG`, `D`, `h`, '' (none); in hundredths. Kulu converts only hours on a voice line (to minutes).
   */
  stated?: { unit: string; hundredths: number };
}

/** An invoice-level charge or discount (not on a row: Finvoice 3.0 Charge/DiscountDetails, UBL AllowanceCharge). */
export interface ModelCharge {
  kind: 'charge' | 'discount';
  reason: string;
  /** Excluding VAT, positive: the kind gives the sign on the invoice. */
  amountCents: number;
  vatTenths: number;
}

export interface ModelSubscription {
  phone: string;
  userName: string;
  costCenter: { code: string; name: string } | null;
  lines: ModelLine[];
}

export interface InvoiceModel {
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  customerNumber: string;
  customerName: string;
  customerAddress: string[];
  /** The buyer's business id; null: the invoice prints none. */
  businessId: string | null;
  referenceNumber: string;
  /** tenths of a percent: 255 = 25,5 % */
  vatTenths: number;
  subscriptions: ModelSubscription[];
  otherLines: ModelLine[];
  /** Invoice-level charges and discounts (`withInvoiceCharges`); none when absent. */
  charges?: ModelCharge[];
}

export interface ModelOptions {
  operator: string;
  subscriptions: number;
  invoiceDate?: string;
  /** Whether the customer uses cost centers (Telia always groups by them). */
  costCenters?: boolean;
  /**
   * Share of subscriptions on a trip outside the EU/EEA and the Nordic-Baltic area in a month, the
   * only ones then roaming there (`TRIP_OUTSIDE_EU_SHARE` is realistic). Default 1: every subscription
   * may, as the generator always drew (frequent; tests seeded against it keep their invoices).
   */
  tripsOutsideEu?: number;
  /**
   * How much the phones use abroad. `frequent` (default): as the generator always drew (a third of
   * the phones with up to 80 GB of EU data, calls abroad at roaming prices; tests seeded against it
   * keep their invoices). `business`: a Finnish company's mix (the demo's second company; the
   * Finnish market's figures the seed follows): data abroad a twentieth of that (a trip's few GB),
   * calls from Finland abroad at the zone prices (0,39 / 0,59 / 1,19 €/min) and a sixth of the
   * minutes. Drawn from the same random stream either way: numbers, users and plans stay as they were.
   */
  abroad?: 'frequent' | 'business';
}

function iso(y: number, m: number, d: number): string {
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthPeriod(y: number, m: number): { start: string; end: string } {
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: iso(y, m, 1), end: iso(y, m, last) };
}

function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** round(a × b / divisor), half away from zero, integers only. */
function mulDivRound(a: number, b: number, divisor: number): number {
  const p = a * b;
  return Math.sign(p) * Math.floor((Math.abs(p) + divisor / 2) / divisor);
}

export function vatCents(totalExclCents: number, vatTenths: number): number {
  return mulDivRound(totalExclCents, vatTenths, 1000);
}

/** The invoice's head as parsing must give it, the same from the PDF and from the Finvoice file. */
export function invoiceHeadOf(model: InvoiceModel) {
  return {
    invoiceNumber: model.invoiceNumber,
    invoiceDate: model.invoiceDate,
    dueDate: model.dueDate,
    customerNumber: model.customerNumber,
    customerName: model.customerName,
    businessId: model.businessId,
    referenceNumber: model.referenceNumber,
    currency: 'EUR',
  } as const;
}

/**
 * The invoice both generators write (the PDF and the Finvoice): the model of `seed` for the
 * `operator`, with the buyer printed on it when one is given (a null business id prints none).
 */
export function seededModel(
  operator: string,
  options: Omit<ModelOptions, 'operator'> & {
    seed?: number;
    buyer?: { name?: string; businessId: string | null };
  },
): { model: InvoiceModel; seed: number } {
  if (!Number.isInteger(options.subscriptions) || options.subscriptions < 1) {
    throw new Error('subscriptions must be a positive integer');
  }
  const seed = options.seed ?? 1;
  const model = buildModel(new Random(seed), {
    operator,
    subscriptions: options.subscriptions,
    invoiceDate: options.invoiceDate,
    costCenters: options.costCenters,
    tripsOutsideEu: options.tripsOutsideEu,
    abroad: options.abroad,
  });
  if (options.buyer) {
    model.businessId = options.buyer.businessId;
    if (options.buyer.name) model.customerName = options.buyer.name;
  }
  return { model, seed };
}

export function buildModel(rng: Random, options: ModelOptions): InvoiceModel {
  const { operator } = options;
  let invoiceDate = options.invoiceDate;
  if (!invoiceDate) {
    const year = rng.int(2024, 2026);
    invoiceDate = iso(year, rng.int(1, 12), rng.int(1, 12));
  }
  const [y, m] = invoiceDate.split('-').map(Number);
  const own = monthPeriod(y, m);
  const prev = m === 1 ? monthPeriod(y - 1, 12) : monthPeriod(y, m - 1);
  const vatTenths = invoiceDate < '2024-09-01' ? 240 : 255;
  const useCostCenters = operator === 'telia' ? true : (options.costCenters ?? rng.chance(0.7));
  const centers = rng.shuffle(COST_CENTERS).slice(0, rng.int(1, COST_CENTERS.length));
  const plans = PLANS[operator] ?? PLANS.elisa;

  const phones = new Set<string>();
  const subscriptions: ModelSubscription[] = [];
  for (let i = 0; i < options.subscriptions; i++) {
    let phone: string;
    do phone = `+358${rng.pick(['40', '41', '44', '45', '46', '50'])}${rng.digits(7)}`;
    while (phones.has(phone));
    phones.add(phone);
    const center = rng.pick(centers);
    const costCenter =
      useCostCenters && (operator === 'telia' || rng.chance(0.85))
        ? { code: center[0], name: center[1] }
        : null;
    subscriptions.push({
      phone,
      userName: personName(rng),
      costCenter,
      lines: subscriptionLines(
        rng,
        plans,
        own,
        prev,
        tripOutsideEu(phone, prev.start, options.tripsOutsideEu),
      ).map((line) => (options.abroad === 'business' ? asBusinessAbroad(line) : line)),
    });
  }
  if (operator === 'telia') {
    // Telia groups the specification by cost center: the printed order is group by group.
    const order = centers.map((c) => c[0]);
    subscriptions.sort((a, b) => order.indexOf(a.costCenter!.code) - order.indexOf(b.costCenter!.code));
  }

  const otherLines: ModelLine[] = [];
  if (rng.chance(0.9))
    otherLines.push(fixed('Laskutuslisä', 'oneOff', 'one_off', rng.pick([295, 390, 490]), null));
  if (rng.chance(0.3)) otherLines.push(fixed('Hyvitys', 'credit', 'discount', -rng.int(100, 5000), null));

  return {
    invoiceNumber: `${rng.int(1, 9)}${rng.digits(rng.int(8, 9))}`,
    invoiceDate,
    dueDate: addDays(invoiceDate, 14),
    customerNumber: `${rng.int(1, 9)}${rng.digits(6)}`,
    customerName: companyName(rng),
    customerAddress: address(rng),
    businessId: businessId(rng),
    referenceNumber: referenceNumber(rng),
    vatTenths,
    subscriptions,
    otherLines,
  };
}

function fixed(
  label: string,
  kind: LineKind,
  category: LineCategory,
  cents: number,
  period: { start: string; end: string } | null,
): ModelLine {
  return {
    label,
    kind,
    category,
    region: null,
    period,
    pieces: 1,
    unitPriceCents: cents,
    amountCents: cents,
  };
}

/**
 * A realistic share of subscriptions that travel outside the EU/EEA and the Nordic-Baltic area in a
 * month (`tripsOutsideEu`). Most business roaming is in the EU and the Nordic countries (priced as at
 * home); a trip further is rare, and its charges are what the roaming alert is for
 * (docs/decisions/0023-alerts.md).
 */
export const TRIP_OUTSIDE_EU_SHARE = 0.05;

/**
 * Whether a subscription roams outside the EU in the month starting `month`, for a `share` of them:
 * drawn from the number and the month alone (FNV-1a), not from the invoice's random stream, so that
 * an invoice of a seed keeps every other line, number and name it has without trips made rare.
 */
export function tripOutsideEu(phone: string, month: string, share = 1): boolean {
  if (share >= 1) return true;
  let h = 0x811c9dc5;
  for (const ch of `${phone}:${month}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return new Random(h).chance(share);
}

const CALLS_ABROAD = 'Ulkomaanpuhelut';

/** Calls from Finland abroad by zone (€ cents a minute) for the roaming prices the frequent mix draws. */
const CALL_ABROAD_PRICE: Record<number, number> = { 99: 39, 149: 59, 199: 59, 249: 119 };

/**
 * A line of the `frequent` mix as the `business` mix has it (`ModelOptions.abroad`): data abroad a
 * twentieth (a trip's few GB), calls from Finland abroad a sixth of the minutes at the zone prices;
 * every other line as it is.
 */
function asBusinessAbroad(line: ModelLine): ModelLine {
  if (line.kind === 'data' && line.region && line.region !== 'domestic') {
    const scale = 20;
    const gbTenths = line.gbTenths === undefined ? undefined : Math.max(1, Math.round(line.gbTenths / scale));
    const mbTenths =
      gbTenths === undefined ? Math.max(1, Math.round(line.mbTenths! / scale)) : gbTenths * 1024;
    const amountCents = line.unitPriceCents === null ? 0 : mulDivRound(mbTenths, line.unitPriceCents, 10);
    const scaled: ModelLine = { ...line, mbTenths, amountCents };
    if (gbTenths !== undefined) scaled.gbTenths = gbTenths;
    return scaled;
  }
  if (line.label === CALLS_ABROAD && line.unitPriceCents !== null) {
    const seconds = Math.max(5, Math.round(line.seconds! / 6));
    const unitPriceCents = CALL_ABROAD_PRICE[line.unitPriceCents] ?? line.unitPriceCents;
    return {
      ...line,
      seconds,
      calls: Math.min(line.calls!, Math.max(1, Math.floor(seconds / 60))),
      unitPriceCents,
      amountCents: mulDivRound(seconds, unitPriceCents, 60),
    };
  }
  return line;
}

function subscriptionLines(
  rng: Random,
  plans: [string, number][],
  own: { start: string; end: string },
  prev: { start: string; end: string },
  outsideEu: boolean,
): ModelLine[] {
  const lines: ModelLine[] = [];
  const [plan, price] = rng.pick(plans);
  lines.push(fixed(plan, 'fee', 'monthly_fee', price, own));
  if (rng.chance(0.2)) {
    const [addOn, addOnPrice] = rng.pick(ADD_ONS);
    lines.push(fixed(addOn, 'fee', 'monthly_fee', addOnPrice, own));
  }
  if (rng.chance(0.15)) return withCredits(rng, lines, own); // no usage at all

  const voice = (label: string, region: LineRegion, priced: boolean): ModelLine => {
    const seconds = rng.int(5, priced ? 3600 : 40000);
    const unitPriceCents = priced ? rng.pick([99, 149, 199, 249]) : null;
    return {
      label,
      kind: 'voice',
      category: 'voice',
      region,
      period: prev,
      seconds,
      calls: rng.int(1, Math.max(1, Math.floor(seconds / 60))),
      unitPriceCents,
      amountCents: unitPriceCents === null ? 0 : mulDivRound(seconds, unitPriceCents, 60),
    };
  };
  const message = (
    label: string,
    category: 'sms' | 'mms',
    region: LineRegion,
    priced: boolean,
  ): ModelLine => {
    const pieces = rng.int(1, priced ? 40 : 400);
    const unitPriceCents = priced ? rng.pick([19, 39, 49]) : null;
    return {
      label,
      kind: 'message',
      category,
      region,
      period: prev,
      pieces,
      unitPriceCents,
      amountCents: unitPriceCents === null ? 0 : pieces * unitPriceCents,
    };
  };
  const data = (label: string, region: LineRegion, priced: boolean): ModelLine => {
    let mbTenths: number;
    let gbTenths: number | undefined;
    if (!priced && rng.chance(0.4)) {
      gbTenths = rng.int(10, 800);
      mbTenths = gbTenths * 1024;
    } else {
      mbTenths = priced ? rng.int(1, 1500) : rng.int(1, 120000);
      if (rng.chance(0.2)) mbTenths = Math.max(10, Math.round(mbTenths / 10) * 10);
    }
    const unitPriceCents = priced ? rng.pick([99, 199, 490]) : null;
    return {
      label,
      kind: 'data',
      category: 'data',
      region,
      period: prev,
      mbTenths,
      gbTenths,
      unitPriceCents,
      amountCents: unitPriceCents === null ? 0 : mulDivRound(mbTenths, unitPriceCents, 10),
    };
  };

  if (rng.chance(0.5)) lines.push(voice('Puhelut kotimaahan', 'domestic', false));
  else {
    lines.push(voice('Puhelut matkapuhelinverkkoon', 'domestic', false));
    if (rng.chance(0.7)) lines.push(voice('Puhelut lankaverkkoon', 'domestic', false));
  }
  if (rng.chance(0.8)) lines.push(message('Tekstiviestit', 'sms', 'domestic', false));
  if (rng.chance(0.2)) lines.push(message('Multimediaviestit', 'mms', 'domestic', false));
  if (rng.chance(0.9)) lines.push(data('Datasiirto kotimaa', 'domestic', false));
  if (rng.chance(0.25)) lines.push(voice('Puhelut Pohjoismaissa ja Baltiassa', 'nordic_baltic', false));
  if (rng.chance(0.15)) lines.push(data('Datasiirto Pohjoismaat ja Baltia', 'nordic_baltic', false));
  if (rng.chance(0.3)) lines.push(voice('Puhelut EU/ETA-alueella', 'eu', false));
  if (rng.chance(0.15)) lines.push(message('Tekstiviestit EU/ETA-alueella', 'sms', 'eu', false));
  if (rng.chance(0.3)) lines.push(data('Datasiirto EU/ETA', 'eu', false));
  // Roaming further afield only on a trip there; drawn either way, so the stream stays as it was.
  const onTrip = (line: ModelLine) => {
    if (outsideEu) lines.push(line);
  };
  if (rng.chance(0.2)) onTrip(voice('Roaming puhelut muualla', 'world', true));
  if (rng.chance(0.15)) onTrip(message('Tekstiviestit muualla', 'sms', 'world', true));
  if (rng.chance(0.15)) onTrip(data('Datasiirto muualla', 'world', true));
  if (rng.chance(0.1)) lines.push(voice(CALLS_ABROAD, 'world', true));
  if (rng.chance(0.1)) {
    const l = voice('Palvelunumerot', 'domestic', true);
    lines.push({ ...l, kind: 'serviceMinutes', category: 'service_number', region: null });
  }
  if (rng.chance(0.08)) {
    const pieces = rng.int(1, 10);
    lines.push({
      label: 'Maksulliset palvelut',
      kind: 'servicePieces',
      category: 'service_number',
      region: null,
      period: prev,
      pieces,
      unitPriceCents: 100,
      amountCents: pieces * 100,
    });
  }
  if (rng.chance(0.05)) lines.push(fixed('Liittymän avausmaksu', 'oneOff', 'one_off', 990, null));
  if (rng.chance(0.05)) lines.push(fixed('SIM-kortin vaihto', 'oneOff', 'one_off', 1500, null));
  return withCredits(rng, lines, own);
}

function withCredits(rng: Random, lines: ModelLine[], own: { start: string; end: string }): ModelLine[] {
  if (rng.chance(0.08)) lines.push(fixed('Alennus', 'credit', 'discount', -rng.int(100, 1000), own));
  if (rng.chance(0.08)) lines.push(fixed('Hyvitys', 'credit', 'discount', -rng.int(100, 6000), null));
  return lines;
}

// ---- e-invoice shapes (issue 38): drawn from their own stream, so the seed's invoice stays as it was

/** The VAT rate of a line (tenths of a percent): its own, else the invoice's. */
export function lineVatTenths(model: InvoiceModel, line: ModelLine): number {
  return line.vatTenths ?? model.vatTenths;
}

/** The reduced Finnish rates a mixed invoice uses besides the general one. */
export const REDUCED_VAT_TENTHS = [140, 100, 0] as const;

/**
 * Several VAT rates on one invoice: some charged lines at 14 %, 10 % and 0 % (each rate on at least
 * one line), the rest at the invoice's rate.
 */
export function withMixedVat(model: InvoiceModel, seed: number): void {
  const rng = new Random(seed * 31337 + 11);
  const charged = [...model.subscriptions.flatMap((s) => s.lines), ...model.otherLines].filter(
    (l) => l.amountCents !== 0,
  );
  for (const line of charged) if (rng.chance(0.25)) line.vatTenths = rng.pick([...REDUCED_VAT_TENTHS]);
  REDUCED_VAT_TENTHS.forEach((tenths, i) => {
    if (!charged.some((l) => l.vatTenths === tenths) && charged[i]) charged[i].vatTenths = tenths;
  });
}

/** Invoice-level charges and discounts: a discount on the whole invoice and an invoicing charge. */
export function withInvoiceCharges(model: InvoiceModel, seed: number): void {
  const rng = new Random(seed * 7727 + 3);
  model.charges = [
    {
      kind: 'discount',
      reason: rng.pick(['Sopimusalennus', 'Volyymialennus', 'Kampanja-alennus']),
      amountCents: rng.int(100, 5000),
      vatTenths: model.vatTenths,
    },
    {
      kind: 'charge',
      reason: rng.pick(['Laskutuspalvelumaksu', 'Käsittelymaksu']),
      amountCents: rng.int(100, 900),
      vatTenths: model.vatTenths,
    },
  ];
  if (rng.chance(0.5)) {
    model.charges.push({
      kind: 'discount',
      reason: 'Hyvitys palvelukatkosta',
      amountCents: rng.int(100, 2000),
      vatTenths: model.vatTenths,
    });
  }
}

/** The odd units, each on a line of its own (the `h` on a service: not minutes of calls). */
const ODD_UNITS: { unit: string; label: string }[] = [
  { unit: 'MON', label: 'Laitevuokra' },
  { unit: 'pv', label: 'Varalaite' },
  { unit: 'DAY', label: 'Matkadatapäivä' },
  { unit: 'vrk', label: 'Vuokrapuhelin' },
  { unit: 'ZZ', label: 'Palvelupaketti' },
  { unit: 'KG', label: 'Laitteen kierrätys' },
  { unit: 'D', label: 'Päiväpassi' },
  { unit: 'h', label: 'Tekninen tuki' },
  { unit: '', label: 'Palvelumaksu' },
];

/**
 * Lines in units Kulu does not convert (`ModelLine.stated`), spread over the subscriptions, and one
 * voice line stated in hours (which are minutes: it is a call).
 */
export function withOddUnits(model: InvoiceModel, seed: number): void {
  const rng = new Random(seed * 4099 + 5);
  ODD_UNITS.forEach(({ unit, label }, i) => {
    const sub = model.subscriptions[i % model.subscriptions.length];
    const hundredths = rng.int(1, 40) * (rng.chance(0.5) ? 100 : 25);
    const unitPriceCents = rng.pick([100, 250, 500]);
    sub.lines.push({
      label,
      kind: 'oneOff',
      category: 'other',
      region: null,
      period: null,
      stated: { unit, hundredths },
      unitPriceCents,
      amountCents: Math.round((hundredths * unitPriceCents) / 100),
    });
  });
  const hours = rng.int(1, 12) * 25; // hundredths of an hour: a whole number of seconds
  model.subscriptions[0].lines.push({
    label: 'Puhelut lankaverkkoon',
    kind: 'voice',
    category: 'voice',
    region: 'domestic',
    period: null,
    seconds: hours * 36,
    stated: { unit: 'h', hundredths: hours },
    unitPriceCents: null,
    amountCents: 0,
  });
}
