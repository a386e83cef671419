import { describe, expect, it } from 'vitest';
import { bySubCompanyOption, hasRealised, realisedByMonthOption } from './savings-options';

const texts = { realised: 'Realised', potential: 'Potential' };

describe('realisedByMonthOption', () => {
  it('draws one bar per month in euros, labelled in the language', () => {
    const o = realisedByMonthOption(
      [
        { month: '2026-01', saving: '0.00' },
        { month: '2026-02', saving: '12.345' },
      ],
      'fi',
      texts,
    );
    expect(o.series[0].data).toEqual([0, 12.35]);
    expect(o.series[0].name).toBe('Realised');
    expect(o.xAxis.data).toHaveLength(2);
    expect(o.xAxis.data[1]).toMatch(/2026/);
    expect(o.tooltip.valueFormatter(12.5)).toMatch(/12,50\s€/);
  });
});

describe('bySubCompanyOption', () => {
  const rows = [
    { subCompanyId: 1, name: 'Small', potentialMonthly: '5.00', realised: '0.00' },
    { subCompanyId: 2, name: 'Large', potentialMonthly: '50.00', realised: '10.00' },
    { subCompanyId: null, name: 'None', potentialMonthly: '5.00', realised: '3.00' },
  ];

  it('puts the largest potential on top (last on the bottom-up axis), ties by realised', () => {
    const o = bySubCompanyOption(rows, 'en', texts);
    expect(o.yAxis.data).toEqual(['Small', 'None', 'Large']);
    expect(o.series[0].data).toEqual([5, 5, 50]);
    expect(o.series[1].data).toEqual([0, 3, 10]);
  });

  it('keeps at most the limit', () => {
    expect(bySubCompanyOption(rows, 'en', texts, 2).yAxis.data).toEqual(['None', 'Large']);
  });
});

describe('hasRealised', () => {
  it('is false when every month saved nothing', () => {
    expect(hasRealised([])).toBe(false);
    expect(hasRealised([{ month: '2026-01', saving: '0.00' }])).toBe(false);
    expect(hasRealised([{ month: '2026-01', saving: '0.01' }])).toBe(true);
  });
});
