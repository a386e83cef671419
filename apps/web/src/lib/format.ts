import { BUSINESS_TIME_ZONE, type Lang } from '@kulu/shared';

/** Amounts are shown in euros (spec §9), formatted for the interface language. */
const intlLocale = (lang: Lang) => (lang === 'fi' ? 'fi-FI' : 'en-GB');

export const formatMoney = (amount: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: 'EUR' }).format(amount);

export const formatNumber = (value: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang)).format(value);

/**
 * An ISO date (`2026-03-01`, that calendar day) or a timestamp (its business day in
 * Europe/Helsinki, whatever the browser's time zone) as a date; empty for null.
 */
export function formatDate(value: string | null | undefined, lang: Lang): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(intlLocale(lang), {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    timeZone: /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : BUSINESS_TIME_ZONE,
  }).format(date);
}

/** A timestamp as date and time in the interface language (the browser's time zone). */
export function formatDateTime(value: string | null, lang: Lang): string {
  if (!value) return '';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return new Intl.DateTimeFormat(intlLocale(lang), {
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(d);
}
