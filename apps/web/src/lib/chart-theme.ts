import type { GlobalToken } from 'antd';

/** The antd tokens a chart is coloured from (the current application theme's). */
export type ChartTokens = Pick<
  GlobalToken,
  | 'colorPrimary'
  | 'colorText'
  | 'colorTextSecondary'
  | 'colorBorder'
  | 'colorBorderSecondary'
  | 'colorBgElevated'
  | 'fontFamily'
  | 'cyan6'
  | 'gold6'
  | 'purple6'
  | 'green6'
  | 'magenta6'
  | 'volcano6'
  | 'geekblue6'
  | 'lime6'
>;

/**
 * An ECharts theme from the application theme: legend, axis and label texts in the theme's text
 * colours (in a dark theme light on dark, not ECharts' dark grey), grid lines in its border colours,
 * tooltips like antd's popups, and a series palette that starts with the theme's primary colour and
 * goes on in its (dark-adjusted) preset colours. Every chart takes it from the shared chart component.
 */
export function echartsTheme(k: ChartTokens) {
  const axis = {
    axisLine: { lineStyle: { color: k.colorBorder } },
    axisTick: { lineStyle: { color: k.colorBorder } },
    axisLabel: { color: k.colorTextSecondary },
    splitLine: { lineStyle: { color: k.colorBorderSecondary } },
    nameTextStyle: { color: k.colorTextSecondary },
  };
  return {
    color: [
      k.colorPrimary,
      k.cyan6,
      k.gold6,
      k.purple6,
      k.green6,
      k.magenta6,
      k.volcano6,
      k.geekblue6,
      k.lime6,
    ],
    backgroundColor: 'transparent',
    textStyle: { color: k.colorText, fontFamily: k.fontFamily },
    legend: {
      textStyle: { color: k.colorText },
      pageTextStyle: { color: k.colorTextSecondary },
      pageIconColor: k.colorText,
      pageIconInactiveColor: k.colorBorder,
    },
    tooltip: {
      backgroundColor: k.colorBgElevated,
      borderColor: k.colorBorderSecondary,
      textStyle: { color: k.colorText },
    },
    categoryAxis: axis,
    valueAxis: axis,
    label: { color: k.colorText },
  };
}
