/**
 * Quantities of an e-invoice row in Kulu's units: pieces, minutes, megabytes (types.ts QuantityUnit).
 */
import { MalformedInvoiceError } from '../errors.js';
import { scaledToNumber } from '../finnish.js';
import type { LineCategory, QuantityUnit } from '../types.js';
import { parseAmount, readOnce, roundDiv, SCALE } from './amounts.js';
import type { EInvoiceQuantity, EInvoiceRow } from './model.js';

/** What a stated unit is in Kulu's terms; null: a unit Kulu does not convert. */
type UnitKind = 'pcs' | 'sec' | 'min' | 'hour' | 'kb' | 'mb' | 'gb';

/** UN/ECE Recommendation 20 codes Kulu converts. */
const UN_UNITS: Record<string, UnitKind> = {
  C62: 'pcs',
  H87: 'pcs',
  EA: 'pcs',
  SEC: 'sec',
  MIN: 'min',
  HUR: 'hour',
  '2P': 'kb',
  '4L': 'mb',
  E34: 'gb',
};

const unitKind = readOnce(1000, (q: EInvoiceQuantity) => `${q.unitUN}|${q.unit}`, readUnitKind);

function readUnitKind(q: EInvoiceQuantity): UnitKind | null {
  const un = UN_UNITS[q.unitUN.toUpperCase()];
  if (un) return un;
  const u = q.unit.toLowerCase().replace(/\.$/, '');
  if (/^(kpl|kappale(tta)?|pcs|pc|st|kpl\/kk|krt|kerta(a)?|viesti(ä)?|kk)$/.test(u)) return 'pcs';
  if (/^(s|sek|sekunti(a)?|sec|seconds?)$/.test(u)) return 'sec';
  if (/^(min|minuutti(a)?|minutes?)$/.test(u)) return 'min';
  if (/^(h|t|tunti(a)?|hours?)$/.test(u)) return 'hour';
  if (/^(kb|kt|kilotavu(a)?)$/.test(u)) return 'kb';
  if (/^(mb|mt|megatavu(a)?|mib)$/.test(u)) return 'mb';
  if (/^(gb|gt|gigatavu(a)?|gib)$/.test(u)) return 'gb';
  return null;
}

export interface Quantities {
  count: number | null;
  quantity: number | null;
  unit: QuantityUnit | null;
  /** With unit `other`: the unit as stated ('' for none). */
  unitCode?: string;
}

/**
 * A row's quantities in Kulu's units: a duration (minutes, two decimals, seconds / 60 rounded half
 * up) or a data volume (MB, one decimal, GB × 1024) is the quantity, and a piece quantity beside it
 * is the count (e.g. the number of calls); pieces alone are the quantity. Hours are minutes only on
 * a voice line (an hour of a service is not 60 minutes of calls). A unit Kulu does not convert (or
 * none) never refuses the row: its quantity is kept as `other` with the unit as stated, when the row
 * has no quantity Kulu converts. `category`: the line's (vocabulary.ts).
 */
export function quantitiesOf(row: EInvoiceRow, category: LineCategory): Quantities {
  let pieces: number | null = null;
  let measured: { quantity: number; unit: QuantityUnit } | null = null;
  let other: Quantities | null = null;
  for (const q of row.quantities) {
    let kind = unitKind(q);
    const value = parseAmount(q.value); // 5 decimals
    if (value === null) {
      throw new MalformedInvoiceError(`row ${row.index}: quantity "${q.value}" is not a number`);
    }
    if (kind === 'hour' && category !== 'voice') kind = null;
    if (kind === null) {
      other ??= {
        count: null,
        quantity: scaledToNumber(value, SCALE),
        unit: 'other',
        unitCode: q.unit || q.unitUN,
      };
      continue;
    }
    if (kind === 'pcs') {
      pieces ??= scaledToNumber(value, SCALE);
      continue;
    }
    if (measured) continue;
    if (kind === 'sec') measured = { quantity: minutes(value), unit: 'min' };
    else if (kind === 'min')
      measured = { quantity: scaledToNumber(roundDiv(value, 10 ** (SCALE - 2)), 2), unit: 'min' };
    else if (kind === 'hour')
      measured = { quantity: scaledToNumber(roundDiv(value * 60, 10 ** (SCALE - 2)), 2), unit: 'min' };
    else if (kind === 'kb')
      measured = { quantity: scaledToNumber(roundDiv(value, 1024 * 10 ** (SCALE - 1)), 1), unit: 'mb' };
    else if (kind === 'mb')
      measured = { quantity: scaledToNumber(roundDiv(value, 10 ** (SCALE - 1)), 1), unit: 'mb' };
    else measured = { quantity: scaledToNumber(roundDiv(value * 1024, 10 ** (SCALE - 1)), 1), unit: 'mb' };
  }
  if (measured) return { count: pieces, quantity: measured.quantity, unit: measured.unit };
  if (pieces !== null) return { count: null, quantity: pieces, unit: 'pcs' };
  return other ?? { count: null, quantity: null, unit: null };
}

/** Seconds (at 5 decimals) → minutes to two decimals, half up: as the PDF parser reads `h:mm:ss`. */
function minutes(seconds5: number): number {
  // seconds / 60 * 100 = seconds * 5 / 3
  return scaledToNumber(roundDiv(seconds5 * 5, 3 * 10 ** SCALE), 2);
}
