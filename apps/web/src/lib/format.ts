import { BUSINESS_TIME_ZONE, type Lang } from '@kulu/shared';

/** What a table cell or a detail shows for a missing value: the same dash on every screen. */
export const NONE = '–';

/** `v`, or the dash for a missing value. */
export const orNone = (v: string | null | undefined): string => v ?? NONE;

/** Amounts are shown in euros (spec §9), formatted for the interface language. */
const intlLocale = (lang: Lang) => (lang === 'fi' ? 'fi-FI' : 'en-GB');

export const formatMoney = (amount: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), { style: 'currency', currency: 'EUR' }).format(amount);

export const formatNumber = (value: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang)).format(value);

/** A day as the interface shows it: `2 Dec 2026` in English (never 02/12/2026, which reads two ways), `2.12.2026` in Finnish. */
const DAY = {
  en: { day: 'numeric', month: 'short', year: 'numeric' },
  fi: { day: 'numeric', month: 'numeric', year: 'numeric' },
} as const;

/** The same day format for the date pickers (dayjs): what formatDate writes, typed back in. */
export const DAY_FORMAT = { en: 'D MMM YYYY', fi: 'D.M.YYYY' } as const;

/**
 * A date picker's formats: it shows DAY_FORMAT and also reads a day typed in the numeric forms people
 * type (1/1/2031, 01/01/2031 or 2031-01-01 in English, 1.1.2031 or 01.01.2031 in Finnish), not only
 * "1 Jan 2031" (the picker reads each form strictly: a leading zero is a form of its own).
 */
export const DAY_PICKER_FORMAT: Record<Lang, string[]> = {
  en: [DAY_FORMAT.en, 'D/M/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'D.M.YYYY', 'DD.MM.YYYY'],
  fi: [DAY_FORMAT.fi, 'DD.MM.YYYY', 'YYYY-MM-DD', 'D/M/YYYY', 'DD/MM/YYYY'],
};

/** `value` in the interface language with `options`; empty for none, as it is when it is no date. */
function formatAt(value: string | null | undefined, lang: Lang, options: Intl.DateTimeFormatOptions): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(intlLocale(lang), options).format(date);
}

/**
 * An ISO date (`2026-03-01`, that calendar day) or a timestamp (its business day in
 * Europe/Helsinki, whatever the browser's time zone) as a date; empty for null.
 */
export const formatDate = (value: string | null | undefined, lang: Lang): string =>
  formatAt(value, lang, {
    ...DAY[lang],
    timeZone: value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'UTC' : BUSINESS_TIME_ZONE,
  });

/** A timestamp as date and time in the interface language (the browser's time zone). */
export const formatDateTime = (value: string | null, lang: Lang): string =>
  formatAt(value, lang, { ...DAY[lang], hour: '2-digit', minute: '2-digit' });
