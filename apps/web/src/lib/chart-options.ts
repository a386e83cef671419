import type { Lang } from '@kulu/shared';
import { formatMoney, formatNumber } from './format';

/**
 * Pure builders of the Cost and Usage dashboard: API figures (money as decimal euro strings)
 * → numbers, changes against the previous period, and ECharts options. No DOM, no ECharts
 * runtime: the options are plain objects, so they are tested as data.
 */

/** A decimal euro string ("1234.50") as a number; anything unparsable counts as 0. */
export const euros = (value: string | number | null | undefined): number => {
  if (value === null || value === undefined) return 0;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : 0;
};

/** Change from the previous period in percent, or null when there is nothing to compare with. */
export function changePercent(current: number, previous: number | null | undefined): number | null {
  if (previous === null || previous === undefined || previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

const intlLocale = (lang: Lang) => (lang === 'fi' ? 'fi-FI' : 'en-GB');

/** "+12.5 %" style change, signed, one decimal, in the user's language format. */
export const formatChange = (percent: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), {
    style: 'percent',
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
    signDisplay: 'exceptZero',
  }).format(percent / 100);

/** A share (0.25) as a percentage ("25 %" / "25 %"). */
export const formatShare = (share: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), { style: 'percent', maximumFractionDigits: 1 }).format(share);

/** `2026-03` as "Mar 2026" / "maalis 2026"; anything else as it is. */
export function formatMonth(month: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  return new Intl.DateTimeFormat(intlLocale(lang), {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/** A usage count (minutes, messages) as a whole number. */
export const formatCount = (value: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 0 }).format(value);

/** Megabytes as gigabytes with up to two decimals. */
export const formatGb = (mb: number, lang: Lang): string =>
  new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 2 }).format(mb / 1024);

export interface TrendMonth {
  month: string;
  cost: string;
  /** The month's cost per cost category (null: not yet categorized). */
  byCategory?: ReadonlyArray<{ costCategoryId: number | null; cost: string }>;
}

export interface NamedCost {
  name: string;
  cost: string;
  /** Carried on the bar or slice, for the drill-down (`ChartClick.data.id`). */
  id?: string;
}

/** The id carried on a clicked bar or slice, if any. */
export const clickedId = (data: unknown): string | undefined =>
  data && typeof data === 'object' && 'id' in data && typeof data.id === 'string' ? data.id : undefined;

/** The id of a trend series: its cost category (`none`: uncategorized, `total`: unsplit). */
export const trendSeriesId = (costCategoryId: number | null) => `category-${costCategoryId ?? 'none'}`;

export interface ChartTexts {
  /** Series name of an unsplit total. */
  cost: string;
  /** Name of the costs whose cost element has no category yet. */
  uncategorized: string;
}

/** A category's name for the charts: the API's, or the translated "uncategorized" for null / ''. */
export const categoryName = (
  names: ReadonlyMap<number | null, string>,
  id: number | null,
  texts: Pick<ChartTexts, 'uncategorized'>,
): string => (id === null ? texts.uncategorized : names.get(id) || texts.uncategorized);

const tooltipMoney = (lang: Lang) => (value: unknown) =>
  formatMoney(typeof value === 'number' ? value : euros(value as string), lang);

export const axisMoney = (lang: Lang) => (value: number) =>
  new Intl.NumberFormat(intlLocale(lang), {
    style: 'currency',
    currency: 'EUR',
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(value);

/** A tooltip of every series at the pointed category, in euros. */
export const axisTooltip = (lang: Lang) => ({
  trigger: 'axis' as const,
  axisPointer: { type: 'shadow' as const },
  valueFormatter: tooltipMoney(lang),
});

/**
 * Months as a category axis, month and year on two lines: up to 18 months every month keeps its
 * label (Finnish names are long).
 */
export const monthAxis = (months: ReadonlyArray<{ month: string }>, lang: Lang) => ({
  type: 'category' as const,
  data: months.map((m) => formatMonth(m.month, lang)),
  axisLabel: {
    interval: months.length > 18 ? ('auto' as const) : 0,
    formatter: (label: string) => label.replace(' ', '\n'),
    lineHeight: 14,
  },
});

/**
 * The trend over months: one bar per month, stacked by cost category when the months carry
 * their split (categories in order of their total, largest at the bottom), else the month total.
 */
export function trendOption(
  months: readonly TrendMonth[],
  names: ReadonlyMap<number | null, string>,
  lang: Lang,
  texts: ChartTexts,
) {
  const totals = new Map<number | null, number>();
  for (const m of months)
    for (const c of m.byCategory ?? [])
      totals.set(c.costCategoryId, (totals.get(c.costCategoryId) ?? 0) + euros(c.cost));
  const categories = [...totals].sort((a, b) => b[1] - a[1]).map(([id]) => id);
  const series = categories.length
    ? categories.map((id) => ({
        id: trendSeriesId(id),
        name: categoryName(names, id, texts),
        type: 'bar' as const,
        stack: 'cost',
        emphasis: { focus: 'series' as const },
        data: months.map((m) => round2(euros(m.byCategory?.find((c) => c.costCategoryId === id)?.cost))),
      }))
    : [{ name: texts.cost, type: 'bar' as const, data: months.map((m) => round2(euros(m.cost))) }];
  return {
    animation: false,
    tooltip: axisTooltip(lang),
    legend: categories.length ? { type: 'scroll' as const, bottom: 0 } : undefined,
    grid: { left: 8, right: 16, top: 16, bottom: categories.length ? 40 : 8, containLabel: true },
    xAxis: monthAxis(months, lang),
    yAxis: { type: 'value' as const, axisLabel: { formatter: axisMoney(lang) } },
    series,
  };
}

/**
 * Cost by category as a doughnut, largest first. A doughnut cannot show credits: categories of
 * zero or negative cost (discounts) are left to the table view.
 */
export function categoryOption(rows: readonly NamedCost[], lang: Lang) {
  const data = [...rows]
    .map((r) => ({ name: r.name, value: round2(euros(r.cost)), id: r.id }))
    .filter((r) => r.value > 0)
    .sort((a, b) => b.value - a.value);
  return {
    animation: false,
    tooltip: {
      trigger: 'item' as const,
      formatter: (p: { name: string; value: number; percent: number }) =>
        `${escapeHtml(p.name)}: ${formatMoney(p.value, lang)} (${formatNumber(p.percent, lang)} %)`,
    },
    legend: {
      type: 'scroll' as const,
      orient: 'vertical' as const,
      right: 0,
      top: 'middle' as const,
      textStyle: { width: 190, overflow: 'truncate' as const },
    },
    series: [
      {
        type: 'pie' as const,
        radius: ['38%', '66%'],
        center: ['28%', '50%'],
        avoidLabelOverlap: true,
        label: { show: false },
        data,
      },
    ],
  };
}

/**
 * Horizontal money bars: euros along, the rows' `names` (cut to `width` pixels) down in the order
 * given (ECharts draws them bottom-up), a bar series for each of `series` (stacked when they say
 * so), and a legend below when there are several.
 */
export function horizontalBarsOption<S extends { name: string; data: unknown[]; stack?: string }>(
  names: readonly string[],
  series: readonly S[],
  lang: Lang,
  width = 160,
) {
  const legend = series.length > 1;
  return {
    animation: false,
    tooltip: axisTooltip(lang),
    legend: legend ? { bottom: 0 } : undefined,
    grid: { left: 8, right: 24, top: 8, bottom: legend ? 32 : 8, containLabel: true },
    xAxis: { type: 'value' as const, axisLabel: { formatter: axisMoney(lang) } },
    yAxis: {
      type: 'category' as const,
      data: [...names],
      axisLabel: { width, overflow: 'truncate' as const },
    },
    series: series.map((s) => ({ ...s, type: 'bar' as const })),
  };
}

/** Top users (or cost centers) as horizontal bars, the largest at the top; at most `limit` bars. */
export function topUsersOption(
  rows: readonly NamedCost[],
  lang: Lang,
  texts: Pick<ChartTexts, 'cost'>,
  limit = 10,
) {
  const sorted = [...rows].sort((a, b) => euros(b.cost) - euros(a.cost)).slice(0, limit);
  // ECharts draws a category y axis bottom-up: reverse so the largest is on top.
  const shown = sorted.reverse();
  return horizontalBarsOption(
    shown.map((r) => r.name),
    [{ name: texts.cost, data: shown.map((r) => ({ value: round2(euros(r.cost)), id: r.id })) }],
    lang,
  );
}

/**
 * Named rows as horizontal bars split into stacked parts (e.g. optimizable and other cost per cost
 * center), in euros, the first row on top; at most `limit` rows.
 */
export function stackedBarsOption(
  names: readonly string[],
  parts: ReadonlyArray<{ name: string; values: readonly string[] }>,
  lang: Lang,
  limit = 15,
) {
  // ECharts draws a category y axis bottom-up: reverse so the first row is on top.
  const shown = names.slice(0, limit).reverse();
  return horizontalBarsOption(
    shown,
    parts.map((p) => ({
      name: p.name,
      stack: 'total',
      data: p.values
        .slice(0, limit)
        .map((v) => round2(euros(v)))
        .reverse(),
    })),
    lang,
    180,
  );
}

export const round2 = (n: number) => Math.round(n * 100) / 100;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
