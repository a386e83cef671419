import type { Lang, MasterColumn, MasterField } from '@kulu/shared';
import { formatDate, NONE } from '../../lib/format';

const intlLocale = (lang: Lang) => (lang === 'fi' ? 'fi-FI' : 'en-GB');

/** Blank cells show the app's one dash for a missing value (lib/format), like the reports. */
export const EMPTY_CELL = NONE;

const toNumber = (value: unknown): number | null => {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
};

/** An amount (the API's decimal string) in euros, in the interface language: `15,90 €`, `€15.90`. */
export function formatEuros(value: unknown, lang: Lang, decimals = 2): string {
  const n = toNumber(value);
  if (n === null) return EMPTY_CELL;
  return new Intl.NumberFormat(intlLocale(lang), {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: Math.max(2, decimals),
  }).format(n);
}

/** A plain decimal number (`25,5`), at most `decimals` decimals. */
export function formatDecimal(value: unknown, lang: Lang, decimals = 2): string {
  const n = toNumber(value);
  if (n === null) return EMPTY_CELL;
  return new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: decimals }).format(n);
}

export function formatPercent(value: unknown, lang: Lang, decimals = 2): string {
  const n = toNumber(value);
  if (n === null) return EMPTY_CELL;
  return new Intl.NumberFormat(intlLocale(lang), {
    style: 'percent',
    maximumFractionDigits: decimals,
  }).format(n / 100);
}

export function formatInteger(value: unknown, lang: Lang): string {
  const n = toNumber(value);
  if (n === null) return EMPTY_CELL;
  return new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 0 }).format(n);
}

/**
 * Amounts a declaration types as `money` that are not euros (plans: the EU/EEA data allowance
 * is in GB). Shown and entered as plain decimals; reported to the shared declarations' owner.
 */
const NOT_EUROS = new Set(['euDataGb']);
export const isEuroAmount = (c: Pick<MasterColumn | MasterField, 'key' | 'type'>): boolean =>
  c.type === 'money' && !NOT_EUROS.has(c.key);

/** The text of one table cell; `t` translates enum and yes/no labels. */
export function cellText(
  column: MasterColumn,
  value: unknown,
  lang: Lang,
  t: (key: string) => string,
): string {
  if (value === null || value === undefined || value === '') return EMPTY_CELL;
  switch (column.type) {
    case 'money':
      return isEuroAmount(column)
        ? formatEuros(value, lang, column.decimals)
        : formatDecimal(value, lang, column.decimals);
    case 'percent':
      return formatPercent(value, lang, column.decimals);
    case 'integer':
      return formatInteger(value, lang);
    case 'date':
      return formatDate(String(value), lang);
    case 'boolean':
      return t(`masters.enums.boolean.${value ? 'true' : 'false'}`);
    case 'enum': {
      const option = column.options?.find((o) => o.value === value);
      return option ? t(option.labelKey) : String(value);
    }
    default:
      return String(value);
  }
}
