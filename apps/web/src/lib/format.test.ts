import { describe, expect, it } from 'vitest';
import { formatDate, formatMoney } from './format';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatting follows the language', () => {
  it('formats euros', () => {
    expect(nbsp(formatMoney(1234.5, 'fi'))).toBe('1 234,50 €');
    expect(formatMoney(1234.5, 'en')).toBe('€1,234.50');
  });
  it('formats dates', () => {
    expect(formatDate('2026-03-01', 'fi')).toBe('1.3.2026');
    expect(formatDate('2026-03-01', 'en')).toBe('01/03/2026');
    expect(formatDate(null, 'en')).toBe('');
  });
});
