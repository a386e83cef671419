import { describe, expect, it } from 'vitest';
import {
  categoryName,
  categoryOption,
  changePercent,
  clickedId,
  trendSeriesId,
  euros,
  formatChange,
  formatCount,
  formatGb,
  formatMonth,
  formatShare,
  topUsersOption,
  trendOption,
} from './chart-options';

const texts = { cost: 'Cost', uncategorized: 'Uncategorized' };
// Intl puts narrow no-break spaces in Finnish numbers: compare with plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('dashboard figures', () => {
  it('reads decimal euro strings, and anything unparsable as zero', () => {
    expect(euros('1234.50')).toBe(1234.5);
    expect(euros('-3.2')).toBe(-3.2);
    expect(euros('abc')).toBe(0);
    expect(euros(null)).toBe(0);
  });

  it('computes the change against the previous period, none when the previous is zero', () => {
    expect(changePercent(110, 100)).toBeCloseTo(10);
    expect(changePercent(50, 100)).toBeCloseTo(-50);
    expect(changePercent(50, 0)).toBeNull();
  });

  it('formats changes, shares, months and gigabytes in the user language', () => {
    expect(plain(formatChange(12.345, 'en'))).toBe('+12.3%');
    expect(plain(formatChange(-4, 'fi'))).toBe('−4,0 %');
    expect(plain(formatShare(0.255, 'fi'))).toBe('25,5 %');
    expect(formatMonth('2026-03', 'en')).toBe('Mar 2026');
    expect(formatMonth('2026-03', 'fi')).toMatch(/^maalis(k\.)? 2026$/);
    expect(formatMonth('bad', 'en')).toBe('bad');
    expect(plain(formatCount(224165.14, 'fi'))).toBe('224 165');
    expect(formatCount(54104.5, 'en')).toBe('54,105');
    expect(plain(formatGb(1536, 'fi'))).toBe('1,5');
    expect(formatGb(2048 * 1000, 'en')).toBe('2,000');
  });

  it('names uncategorized costs with the translated text', () => {
    const names = new Map<number | null, string>([
      [1, 'Voice'],
      [2, ''],
    ]);
    expect(categoryName(names, 1, texts)).toBe('Voice');
    expect(categoryName(names, null, texts)).toBe('Uncategorized');
    expect(categoryName(names, 2, texts)).toBe('Uncategorized');
  });
});

describe('trend chart', () => {
  const names = new Map<number | null, string>([
    [1, 'Voice'],
    [2, 'Data'],
  ]);

  it('stacks the months by cost category, largest category first, zero where a month lacks one', () => {
    const option = trendOption(
      [
        {
          month: '2026-01',
          cost: '30.00',
          byCategory: [
            { costCategoryId: 1, cost: '10.00' },
            { costCategoryId: 2, cost: '20.00' },
          ],
        },
        {
          month: '2026-02',
          cost: '25.50',
          byCategory: [
            { costCategoryId: 2, cost: '20.50' },
            { costCategoryId: null, cost: '5' },
          ],
        },
      ],
      names,
      'en',
      texts,
    );
    expect(option.xAxis.data).toEqual(['Jan 2026', 'Feb 2026']);
    expect(option.xAxis.axisLabel.interval).toBe(0);
    expect(option.xAxis.axisLabel.formatter('Jan 2026')).toBe('Jan\n2026');
    expect(option.series.map((s) => s.name)).toEqual(['Data', 'Voice', 'Uncategorized']);
    expect(option.series.map((s) => s.data)).toEqual([
      [20, 20.5],
      [10, 0],
      [0, 5],
    ]);
    expect(option.series.every((s) => 'stack' in s && s.stack === 'cost')).toBe(true);
    expect(option.animation).toBe(false);
    // Each series carries its category for the drill-down of a clicked bar.
    expect(option.series.map((s) => ('id' in s ? s.id : undefined))).toEqual([
      trendSeriesId(2),
      trendSeriesId(1),
      trendSeriesId(null),
    ]);
    expect(trendSeriesId(null)).not.toBe(trendSeriesId(0));
  });

  it('carries the row id on bars and slices, and reads it back from a click', () => {
    const bars = topUsersOption(
      [
        { name: 'A', cost: '5', id: '7' },
        { name: 'B', cost: '9', id: '8' },
      ],
      'en',
      texts,
    );
    expect(bars.series[0].data.map((d) => clickedId(d))).toEqual(['7', '8']);
    const pie = categoryOption([{ name: 'Voice', cost: '3', id: '4' }], 'en');
    expect(clickedId(pie.series[0].data[0])).toBe('4');
    expect([clickedId(undefined), clickedId(12), clickedId({ id: 3 })]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('shows the month totals as one series when the months carry no split', () => {
    const option = trendOption([{ month: '2026-01', cost: '12.34', byCategory: [] }], names, 'fi', texts);
    expect(option.series).toEqual([{ name: 'Cost', type: 'bar', data: [12.34] }]);
    expect(option.legend).toBeUndefined();
  });

  it('formats tooltip money in the user language', () => {
    const option = trendOption([{ month: '2026-01', cost: '1234.5' }], names, 'fi', texts);
    expect(plain(option.tooltip.valueFormatter(1234.5))).toBe('1 234,50 €');
  });
});

describe('category and top user charts', () => {
  it('sorts the categories largest first', () => {
    const option = categoryOption(
      [
        { name: 'Voice', cost: '5.00' },
        { name: 'Data', cost: '15.00' },
      ],
      'en',
    );
    expect(option.series[0].data).toEqual([
      { name: 'Data', value: 15 },
      { name: 'Voice', value: 5 },
    ]);
  });

  it('leaves credits and empty categories out of the doughnut', () => {
    const option = categoryOption(
      [
        { name: 'Voice', cost: '5.00' },
        { name: 'Discounts', cost: '-2.00' },
        { name: 'MMS', cost: '0.00' },
      ],
      'en',
    );
    expect(option.series[0].data).toEqual([{ name: 'Voice', value: 5 }]);
  });

  it('escapes category names in the tooltip', () => {
    const option = categoryOption([{ name: '<b>x</b>', cost: '1' }], 'en');
    expect(option.tooltip.formatter({ name: '<b>x</b>', value: 1, percent: 100 })).toBe(
      '&lt;b&gt;x&lt;/b&gt;: €1.00 (100 %)',
    );
  });

  it('draws at most the top ten bars', () => {
    const rows = Array.from({ length: 14 }, (_, k) => ({ name: `CC ${k}`, cost: String(k) }));
    const option = topUsersOption(rows, 'en', texts);
    expect(option.yAxis.data).toHaveLength(10);
    expect(option.yAxis.data.at(-1)).toBe('CC 13');
    expect(option.yAxis.data[0]).toBe('CC 4');
  });

  it('puts the costliest user at the top of the bars', () => {
    const option = topUsersOption(
      [
        { name: 'Anna', cost: '10' },
        { name: 'Bertil', cost: '30' },
        { name: 'Cecilia', cost: '20' },
      ],
      'en',
      texts,
    );
    // A category y axis is drawn bottom-up: the last entry is the top bar.
    expect(option.yAxis.data).toEqual(['Anna', 'Cecilia', 'Bertil']);
    expect(option.series[0].data).toEqual([{ value: 10 }, { value: 20 }, { value: 30 }]);
  });
});
