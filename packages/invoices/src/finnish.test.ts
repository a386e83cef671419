import { describe, expect, it } from 'vitest';
import {
  formatCents,
  formatDuration,
  formatPhone,
  formatScaled,
  parseCents,
  parseDurationHundredths,
  parseFinnishDate,
  parsePercentTenths,
  parsePeriod,
  parseScaled,
  scaledToNumber,
  toE164,
} from './finnish.js';

describe('Finnish numbers', () => {
  it.each([
    ['0,00', 0],
    ['12,30', 1230],
    ['1 234,56', 123456],
    ['1\u00a0234,56', 123456],
    ['1\u202f234,56', 123456],
    ['12 345 678,90', 1234567890],
    ['-12,30', -1230],
    ['\u221212,30', -1230],
    ['12,30-', -1230],
    ['-1 234,50', -123450],
    ['7', 700],
    ['3,9', 390],
  ])('parses %s as %i cents', (text, cents) => {
    expect(parseCents(text)).toBe(cents);
  });

  it.each(['', 'abc', '12.30', '1,234', '12,345', '1 23,00', '--1,00', '1 2345,00'])('refuses %j', (text) => {
    expect(parseCents(text)).toBeNull();
  });

  it('keeps exact scaled integers (no float sums)', () => {
    const values = ['0,10', '0,20', '0,30'].map((t) => parseCents(t)!);
    expect(values.reduce((a, b) => a + b, 0)).toBe(60);
    expect(scaledToNumber(60, 2)).toBe(0.6);
    expect(parseScaled('57 175,1', 1)).toBe(571751);
  });

  it('gives a scaled integer as the number its decimal text reads as, up to 2^53', () => {
    const values = [0, 1, -1, 5, 60, 99999, -123456789, 2 ** 52 - 1, -(2 ** 52 - 1), 2 ** 52, 2 ** 53 - 1];
    for (let i = 1; i < 2000; i++) values.push(Math.round(i ** 4.7) * (i % 2 ? 1 : -1));
    for (const value of values) {
      for (let scale = 0; scale <= 15; scale++) {
        const text = (value / 10 ** scale).toFixed(scale);
        expect(Object.is(scaledToNumber(value, scale), Number(text)), `${value} at ${scale}`).toBe(true);
      }
    }
  });

  it('formats the Finnish way and round-trips', () => {
    expect(formatCents(123456)).toBe('1 234,56');
    expect(formatCents(-1230)).toBe('-12,30');
    expect(formatCents(-1230, { minus: 'trailing' })).toBe('12,30-');
    expect(formatCents(-1230, { minus: 'unicode' })).toBe('\u221212,30');
    expect(formatCents(123456789, { thousands: '\u00a0' })).toBe('1\u00a0234\u00a0567,89');
    expect(formatScaled(12, 0)).toBe('12');
    for (const cents of [0, 1, -1, 99, 100, 123456, -987654321]) {
      for (const minus of ['leading', 'unicode', 'trailing'] as const) {
        expect(parseCents(formatCents(cents, { minus }))).toBe(cents);
      }
    }
  });

  it('reads VAT rates in tenths of a percent', () => {
    expect(parsePercentTenths('25,5 %')).toBe(255);
    expect(parsePercentTenths('24 %')).toBe(240);
    expect(parsePercentTenths('abc')).toBeNull();
  });
});

describe('Finnish dates', () => {
  it.each([
    ['1.10.2026', '2026-10-01'],
    ['01.10.2026', '2026-10-01'],
    ['31.12.2025', '2025-12-31'],
    ['29.2.2024', '2024-02-29'],
  ])('parses %s', (text, iso) => {
    expect(parseFinnishDate(text)).toBe(iso);
  });

  it.each(['29.2.2025', '32.1.2026', '1.13.2026', '2026-10-01', '1.10.26'])('refuses %s', (text) => {
    expect(parseFinnishDate(text)).toBeNull();
  });

  it('parses periods with en dash, hyphen and spaces', () => {
    expect(parsePeriod('1.10.2026–31.10.2026')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(parsePeriod('01.10.2026 - 31.10.2026')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(parsePeriod('Puhelut 01.10.2026–31.10.2026')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(parsePeriod('1.10.2026')).toBeNull();
  });
});

describe('durations and phone numbers', () => {
  it('turns h:mm:ss into minutes rounded to two decimals', () => {
    expect(parseDurationHundredths('2:03:15')).toBe(12325);
    expect(parseDurationHundredths('0:08:25')).toBe(842);
    expect(parseDurationHundredths('6:37:15')).toBe(39725);
    expect(parseDurationHundredths('0:00:01')).toBe(2);
    expect(parseDurationHundredths('1:60:00')).toBeNull();
    expect(formatDuration(7395)).toBe('2:03:15');
  });

  it('normalises phone numbers to E.164', () => {
    expect(toE164('040 123 4567')).toBe('+358401234567');
    expect(toE164('+358 50 377 6416')).toBe('+358503776416');
    expect(toE164('00358 45 251 4604')).toBe('+358452514604');
    expect(toE164('abc')).toBeNull();
    expect(formatPhone('+358401234567', 'national')).toBe('040 123 4567');
    expect(formatPhone('+358401234567', 'international')).toBe('+358 40 123 4567');
  });
});
