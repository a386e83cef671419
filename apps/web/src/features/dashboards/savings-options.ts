import type { Lang, Savings } from '@kulu/shared';
import {
  axisMoney,
  axisTooltip,
  euros,
  horizontalBarsOption,
  monthAxis,
  round2,
} from '../../lib/chart-options';

/**
 * Pure ECharts options of the Savings dashboard (plain objects, tested as data): realised
 * savings by month, and potential against realised savings by sub-company.
 */

export interface SavingsTexts {
  realised: string;
  potential: string;
}

/** Realised savings by month as bars, every month of the period labelled. */
export function realisedByMonthOption(
  months: Savings['realised']['byMonth'],
  lang: Lang,
  texts: SavingsTexts,
) {
  return {
    animation: false,
    tooltip: axisTooltip(lang),
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: monthAxis(months, lang),
    yAxis: { type: 'value' as const, axisLabel: { formatter: axisMoney(lang) } },
    series: [
      {
        name: texts.realised,
        type: 'bar' as const,
        data: months.map((m) => round2(euros(m.saving))),
      },
    ],
  };
}

/**
 * Potential (a month) and realised (in the period) savings per sub-company as paired
 * horizontal bars, the largest potential at the top; at most `limit` sub-companies.
 */
export function bySubCompanyOption(
  rows: Savings['bySubCompany'],
  lang: Lang,
  texts: SavingsTexts,
  limit = 10,
) {
  const shown = [...rows]
    .sort(
      (a, b) =>
        euros(b.potentialMonthly) - euros(a.potentialMonthly) || euros(b.realised) - euros(a.realised),
    )
    .slice(0, limit)
    // A category y axis is drawn bottom-up: reverse so the largest is on top.
    .reverse();
  return horizontalBarsOption(
    shown.map((r) => r.name),
    [
      { name: texts.potential, data: shown.map((r) => round2(euros(r.potentialMonthly))) },
      { name: texts.realised, data: shown.map((r) => round2(euros(r.realised))) },
    ],
    lang,
  );
}

/** Whether the period has any realised saving to draw (else the chart's empty state). */
export const hasRealised = (months: Savings['realised']['byMonth']): boolean =>
  months.some((m) => euros(m.saving) !== 0);
