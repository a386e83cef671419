/**
 * Amounts of an e-invoice (Finvoice, Peppol): read at 5 decimals as integers, given rounded to the
 * cent. Format-neutral: both the decimal comma and the decimal point are read.
 */
import { MalformedInvoiceError } from '../errors.js';

/** Amounts are read at 5 decimals (the most Finvoice allows) and given rounded to the cent. */
export const SCALE = 5;
/** One cent at 5 decimals. */
export const CENT = 10 ** (SCALE - 2);

/**
 * `read` remembered by `keyOf` of its argument, for at most `max` keys: what a document repeats
 * (amounts, units) is read once.
 */
export function readOnce<A, V extends NonNullable<unknown> | null>(
  max: number,
  keyOf: (a: A) => string,
  read: (a: A) => V,
): (a: A) => V {
  const known = new Map<string, V>();
  return (a) => {
    const key = keyOf(a);
    let value = known.get(key);
    if (value === undefined) {
      value = read(a);
      if (known.size < max) known.set(key, value);
    }
    return value;
  };
}

/** An amount (`-12,30`, `0.069`, `100`; decimal comma or point, 0–5 decimals) at 5 decimals; null when not one. Each text is read once. */
export const parseAmount: (text: string) => number | null = readOnce(
  50_000,
  (text: string) => text,
  readAmount,
);

function readAmount(text: string): number | null {
  const m = /^(-)?(\d{1,15})(?:[,.](\d{1,5}))?$/.exec(text.trim());
  if (!m) return null;
  const value = Number(m[2]) * 10 ** SCALE + Number((m[3] ?? '').padEnd(SCALE, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return m[1] && value !== 0 ? -value : value;
}

/** round(value / divisor), half away from zero, integers only. */
export function roundDiv(value: number, divisor: number): number {
  if (!Number.isSafeInteger(value)) {
    // beyond 2^53 (a 5-decimal amount times a rate): exactly, in BigInt
    const big = BigInt(value < 0 ? -value : value);
    const d = BigInt(divisor);
    const q = Number((big + d / 2n) / d);
    return value < 0 && q !== 0 ? -q : q;
  }
  const q = Math.floor((Math.abs(value) + divisor / 2) / divisor);
  return value < 0 && q !== 0 ? -q : q;
}

/** 5-decimal amount → euros rounded to the cent. */
export function euros(value5: number): number {
  // an integer divided by a power of ten is the same double as its decimal text
  return roundDiv(value5, CENT) / 100;
}

/** `25,5` / `25.5` → 255000 (percent at 4 decimals); null when not a percentage. */
export function readPercent(text: string | null): number | null {
  const m = text === null ? null : /^(\d{1,3})(?:[,.](\d{1,4}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 10_000 + Number((m[2] ?? '').padEnd(4, '0')) : null;
}

/** A percentage at 4 decimals (255000) → percent (25.5). */
export function percentOf(rate4: number): number {
  return rate4 / 10_000;
}

/** A format's amount text at 5 decimals; refused (MalformedInvoiceError) when absent or not an amount. */
export function amountOf(text: string | null, what: string, format: string): number {
  const value = text === null ? null : parseAmount(text);
  if (value === null) {
    throw new MalformedInvoiceError(
      text === null ? `the ${format} invoice has no ${what}` : `${what} "${text}" is not a ${format} amount`,
    );
  }
  return value;
}

/** A format's percentage at 4 decimals; refused when absent or not a percentage. */
export function percentTenThousandths(text: string | null, what: string, format: string): number {
  const rate = readPercent(text);
  if (rate === null) {
    throw new MalformedInvoiceError(
      text === null ? `the ${format} invoice has no ${what}` : `${what} "${text}" is not a percentage`,
    );
  }
  return rate;
}
