import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  businessDateTime,
  helsinkiDay,
  helsinkiDayStart,
  helsinkiMonth,
} from './business-day.js';

describe('the business day is the day in Europe/Helsinki', () => {
  it.each([
    // Winter (UTC+2): the day turns at 22:00 UTC, not at UTC midnight ...
    ['2026-01-14T21:59:59Z', '2026-01-14'],
    ['2026-01-14T22:00:00Z', '2026-01-15'],
    // ... so 00:30 in Helsinki is still the previous day in UTC.
    ['2026-01-14T22:30:00Z', '2026-01-15'],
    // Summer (UTC+3): at 21:00 UTC.
    ['2026-07-14T20:59:59Z', '2026-07-14'],
    ['2026-07-14T21:00:00Z', '2026-07-15'],
    // The next month and the next year start on the last evening in UTC.
    ['2026-01-31T21:59:00Z', '2026-01-31'],
    ['2026-01-31T22:00:00Z', '2026-02-01'],
    ['2026-12-31T22:00:00Z', '2027-01-01'],
    // Spring DST change (29 March 2026: 03:00 EET becomes 04:00 EEST at 01:00 UTC): the day
    // before turns at 22:00 UTC (still UTC+2), across the change the day stays the 29th, and the
    // change day itself ends at 21:00 UTC (now UTC+3).
    ['2026-03-28T21:59:59Z', '2026-03-28'],
    ['2026-03-28T22:00:00Z', '2026-03-29'],
    ['2026-03-29T00:59:59Z', '2026-03-29'],
    ['2026-03-29T01:00:00Z', '2026-03-29'],
    ['2026-03-29T20:59:59Z', '2026-03-29'],
    ['2026-03-29T21:00:00Z', '2026-03-30'],
    // Autumn DST change (25 October 2026: 04:00 EEST becomes 03:00 EET at 01:00 UTC): the day
    // before ends at 21:00 UTC (UTC+3), the repeated hour is still the 25th, and the change day
    // ends at 22:00 UTC (UTC+2 again).
    ['2026-10-24T20:59:59Z', '2026-10-24'],
    ['2026-10-24T21:00:00Z', '2026-10-25'],
    ['2026-10-25T00:30:00Z', '2026-10-25'],
    ['2026-10-25T01:30:00Z', '2026-10-25'],
    ['2026-10-25T21:59:59Z', '2026-10-25'],
    ['2026-10-25T22:00:00Z', '2026-10-26'],
  ])('%s falls on %s', (instant, day) => {
    expect(helsinkiDay(new Date(instant))).toBe(day);
  });

  it.each([
    ['2026-01-31T21:59:00Z', '2026-01'],
    ['2026-01-31T22:00:00Z', '2026-02'],
    ['2026-06-30T21:00:00Z', '2026-07'],
    ['2026-12-31T21:59:59Z', '2026-12'],
  ])('%s falls in the month %s', (instant, month) => {
    expect(helsinkiMonth(new Date(instant))).toBe(month);
  });
});

describe('the instant a business day begins', () => {
  // 22:00 UTC the day before in winter and 21:00 UTC in summer, on both DST change days too.
  it.each([
    ['2026-01-15', '2026-01-14T22:00:00.000Z'],
    ['2026-07-15', '2026-07-14T21:00:00.000Z'],
    ['2026-03-29', '2026-03-28T22:00:00.000Z'],
    ['2026-03-30', '2026-03-29T21:00:00.000Z'],
    ['2026-10-25', '2026-10-24T21:00:00.000Z'],
    ['2026-10-26', '2026-10-25T22:00:00.000Z'],
    ['2027-01-01', '2026-12-31T22:00:00.000Z'],
  ])('%s begins at %s', (day, instant) => {
    expect(helsinkiDayStart(day).toISOString()).toBe(instant);
  });
});

describe('calendar arithmetic on days and months', () => {
  // Across month, year and leap-day edges.
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-29', 1, '2026-03-30'],
  ] as const)('%s plus %i days is %s', (day, n, expected) => {
    expect(addDays(day, n)).toBe(expected);
  });

  // Across year edges both ways.
  it.each([
    ['2026-01', -1, '2025-12'],
    ['2026-12', 1, '2027-01'],
    ['2026-05', -11, '2025-06'],
    ['2026-05', 0, '2026-05'],
  ] as const)('%s plus %i months is %s', (month, n, expected) => {
    expect(addMonths(month, n)).toBe(expected);
  });
});

describe('a date and time as the interface writes it (Helsinki time)', () => {
  it('is 2 Dec 2026, 14:05 in English and 2.12.2026 klo 14.05 in Finnish, never an ISO or 02/12/2026 time', () => {
    expect(businessDateTime('2026-12-02T12:05:00Z', 'en')).toBe('2 Dec 2026, 14:05');
    expect(businessDateTime('2026-12-02T12:05:00Z', 'fi')).toBe('2.12.2026 klo 14.05');
    // Summer time, and the Helsinki day after the UTC one.
    expect(businessDateTime(new Date('2026-06-30T21:30:00Z'), 'fi')).toBe('1.7.2026 klo 00.30');
    expect(businessDateTime(null, 'en')).toBe('');
  });
});
