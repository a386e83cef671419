import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { DAY_FORMAT, formatDate, formatDateTime, formatMoney } from './format';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatting follows the language', () => {
  it('formats euros', () => {
    expect(nbsp(formatMoney(1234.5, 'fi'))).toBe('1 234,50 €');
    expect(formatMoney(1234.5, 'en')).toBe('€1,234.50');
  });
  it('formats dates', () => {
    expect(formatDate('2026-03-01', 'fi')).toBe('1.3.2026');
    // English writes the month's name: 02/12/2026 reads as 2 December or February 12.
    expect(formatDate('2026-12-02', 'en')).toBe('2 Dec 2026');
    expect(formatDate('2026-03-01', 'en')).toBe('1 Mar 2026');
    expect(formatDate(null, 'en')).toBe('');
  });
  it('shows a timestamp on its day in Europe/Helsinki, whatever the browser time zone', () => {
    // 00:30 on 1 March in Helsinki is 22:30 UTC on 28 February.
    expect(formatDate('2026-02-28T22:30:00.000Z', 'fi')).toBe('1.3.2026');
    expect(formatDate('2026-02-28T21:59:00.000Z', 'en')).toBe('28 Feb 2026');
  });
  it('formats a timestamp as date and time in the browser time zone; empty or not a date as is', () => {
    expect(formatDateTime('2026-03-01T10:05:00', 'fi')).toBe('1.3.2026 klo 10.05');
    expect(formatDateTime('2026-03-01T10:05:00', 'en')).toBe('1 Mar 2026, 10:05');
    expect(formatDateTime(null, 'en')).toBe('');
    expect(formatDateTime('soon', 'en')).toBe('soon');
  });
  it('the date pickers write a day as formatDate does, in both languages', () => {
    for (const lang of ['en', 'fi'] as const) {
      expect(dayjs('2026-12-02').format(DAY_FORMAT[lang])).toBe(formatDate('2026-12-02', lang));
    }
  });
});
