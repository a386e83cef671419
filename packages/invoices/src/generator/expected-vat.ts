/**
 * What parsing a generated e-invoice (Finvoice or Peppol) must give for its VAT and its invoice-level
 * charges, computed as the e-invoice builder does: one place for both generators.
 */
import type { InvoiceLine, ParsedInvoice, VatBreakdown } from '../types.js';
import { vatCents } from './model.js';

const euros = (cents: number) => Number((cents / 100).toFixed(2));

/**
 * From the bases per VAT rate (tenths of a percent → cents, signed as parsed): each rate's VAT (base ×
 * rate rounded once), highest rate first; the totals; the invoice's `vatRate` (the largest base's)
 * and its `vatBreakdown` where there are several rates.
 */
export function expectedVat(bases: Map<number, number>): {
  rates: { tenths: number; base: number; vat: number }[];
  totalExcl: number;
  vat: number;
  head: Pick<ParsedInvoice, 'vatRate'> & { vatBreakdown?: VatBreakdown[] };
} {
  const rates = [...bases.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([tenths, base]) => ({ tenths, base, vat: vatCents(base, tenths) }));
  const main = rates.reduce((a, b) => (Math.abs(b.base) > Math.abs(a.base) ? b : a));
  const head: Pick<ParsedInvoice, 'vatRate'> & { vatBreakdown?: VatBreakdown[] } = {
    vatRate: main.tenths / 10,
  };
  if (rates.length > 1) {
    head.vatBreakdown = rates.map((r) => ({ rate: r.tenths / 10, base: euros(r.base), vat: euros(r.vat) }));
  }
  return {
    rates,
    totalExcl: rates.reduce((s, r) => s + r.base, 0),
    vat: rates.reduce((s, r) => s + r.vat, 0),
    head,
  };
}

/** An invoice-level charge (category `other`) or discount (`discount`) as parsed; `cents` signed as parsed. */
export function expectedChargeLine(
  reason: string,
  kind: 'charge' | 'discount',
  cents: number,
  vatTenths: number,
): InvoiceLine {
  return {
    label: reason,
    category: kind === 'discount' ? 'discount' : 'other',
    region: null,
    periodStart: null,
    periodEnd: null,
    count: null,
    quantity: null,
    unit: null,
    unitPrice: null,
    amount: euros(cents),
    vatRate: vatTenths / 10,
  };
}
