import { describe, expect, it } from 'vitest';
import { theme, type GlobalToken } from 'antd';
import { APP_THEMES, antdThemeFor } from './themes';
import { echartsTheme } from './chart-theme';
import { contrast } from './contrast';

const tokensOf = (t: (typeof APP_THEMES)[number]) => theme.getDesignToken(antdThemeFor(t)) as GlobalToken;

describe.each(APP_THEMES.map((t) => [t.key, t] as const))('the charts of theme %s', (_, t) => {
  const k = tokensOf(t);
  const chart = echartsTheme(k);

  it('draw legend, axis labels and tooltips in colours that read on the card background', () => {
    expect(contrast(chart.legend.textStyle.color, k.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(chart.categoryAxis.axisLabel.color, k.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(chart.valueAxis.axisLabel.color, k.colorBgContainer)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(chart.tooltip.textStyle.color, chart.tooltip.backgroundColor)).toBeGreaterThanOrEqual(
      4.5,
    );
  });

  it("start their series palette with the theme's primary colour", () => {
    expect(chart.color[0]).toBe(k.colorPrimary);
  });
});

describe('charts in the dark themes', () => {
  it('have light legend texts, not the dark grey ECharts draws by default', () => {
    for (const t of APP_THEMES.filter((x) => x.dark)) {
      const k = tokensOf(t);
      // ECharts' default legend text is #333: on a dark card it hardly shows.
      expect(contrast('#333333', k.colorBgContainer)).toBeLessThan(2);
      expect(contrast(echartsTheme(k).legend.textStyle.color, k.colorBgContainer)).toBeGreaterThanOrEqual(7);
    }
  });

  it('use another palette than the light themes', () => {
    const light = echartsTheme(tokensOf(APP_THEMES[0])).color;
    for (const t of APP_THEMES.filter((x) => x.dark))
      expect(echartsTheme(tokensOf(t)).color).not.toEqual(light);
  });
});
