import { describe, expect, it } from 'vitest';
import { addDays, addMonths, helsinkiDay, helsinkiDayStart, helsinkiMonth } from './business-day.js';

const at = (iso: string) => new Date(iso);

describe('the business day is the day in Europe/Helsinki', () => {
  it('turns at 22:00 UTC in winter (UTC+2), not at UTC midnight', () => {
    expect(helsinkiDay(at('2026-01-14T21:59:59Z'))).toBe('2026-01-14');
    expect(helsinkiDay(at('2026-01-14T22:00:00Z'))).toBe('2026-01-15');
    // 00:30 in Helsinki is still the previous day in UTC.
    expect(helsinkiDay(at('2026-01-14T22:30:00Z'))).toBe('2026-01-15');
  });

  it('turns at 21:00 UTC in summer (UTC+3)', () => {
    expect(helsinkiDay(at('2026-07-14T20:59:59Z'))).toBe('2026-07-14');
    expect(helsinkiDay(at('2026-07-14T21:00:00Z'))).toBe('2026-07-15');
  });

  it("starts the next month on the month's last evening in UTC, and the next year", () => {
    expect(helsinkiDay(at('2026-01-31T21:59:00Z'))).toBe('2026-01-31');
    expect(helsinkiMonth(at('2026-01-31T21:59:00Z'))).toBe('2026-01');
    expect(helsinkiDay(at('2026-01-31T22:00:00Z'))).toBe('2026-02-01');
    expect(helsinkiMonth(at('2026-01-31T22:00:00Z'))).toBe('2026-02');
    expect(helsinkiMonth(at('2026-06-30T21:00:00Z'))).toBe('2026-07');
    expect(helsinkiDay(at('2026-12-31T22:00:00Z'))).toBe('2027-01-01');
    expect(helsinkiMonth(at('2026-12-31T21:59:59Z'))).toBe('2026-12');
  });

  it('follows the spring DST change (29 March 2026: 03:00 EET becomes 04:00 EEST at 01:00 UTC)', () => {
    // The day before the change turns at 22:00 UTC (still UTC+2) ...
    expect(helsinkiDay(at('2026-03-28T21:59:59Z'))).toBe('2026-03-28');
    expect(helsinkiDay(at('2026-03-28T22:00:00Z'))).toBe('2026-03-29');
    // ... across the change the day stays the 29th ...
    expect(helsinkiDay(at('2026-03-29T00:59:59Z'))).toBe('2026-03-29');
    expect(helsinkiDay(at('2026-03-29T01:00:00Z'))).toBe('2026-03-29');
    // ... and the change day itself ends at 21:00 UTC (now UTC+3).
    expect(helsinkiDay(at('2026-03-29T20:59:59Z'))).toBe('2026-03-29');
    expect(helsinkiDay(at('2026-03-29T21:00:00Z'))).toBe('2026-03-30');
  });

  it('follows the autumn DST change (25 October 2026: 04:00 EEST becomes 03:00 EET at 01:00 UTC)', () => {
    // The day before ends at 21:00 UTC (UTC+3) ...
    expect(helsinkiDay(at('2026-10-24T20:59:59Z'))).toBe('2026-10-24');
    expect(helsinkiDay(at('2026-10-24T21:00:00Z'))).toBe('2026-10-25');
    // ... the repeated hour is still the 25th ...
    expect(helsinkiDay(at('2026-10-25T00:30:00Z'))).toBe('2026-10-25');
    expect(helsinkiDay(at('2026-10-25T01:30:00Z'))).toBe('2026-10-25');
    // ... and the change day ends at 22:00 UTC (UTC+2 again).
    expect(helsinkiDay(at('2026-10-25T21:59:59Z'))).toBe('2026-10-25');
    expect(helsinkiDay(at('2026-10-25T22:00:00Z'))).toBe('2026-10-26');
  });
});

describe('the instant a business day begins', () => {
  it('is 22:00 UTC the day before in winter and 21:00 UTC in summer, on both DST change days too', () => {
    expect(helsinkiDayStart('2026-01-15').toISOString()).toBe('2026-01-14T22:00:00.000Z');
    expect(helsinkiDayStart('2026-07-15').toISOString()).toBe('2026-07-14T21:00:00.000Z');
    expect(helsinkiDayStart('2026-03-29').toISOString()).toBe('2026-03-28T22:00:00.000Z');
    expect(helsinkiDayStart('2026-03-30').toISOString()).toBe('2026-03-29T21:00:00.000Z');
    expect(helsinkiDayStart('2026-10-25').toISOString()).toBe('2026-10-24T21:00:00.000Z');
    expect(helsinkiDayStart('2026-10-26').toISOString()).toBe('2026-10-25T22:00:00.000Z');
    expect(helsinkiDayStart('2027-01-01').toISOString()).toBe('2026-12-31T22:00:00.000Z');
  });
});

describe('calendar arithmetic on days and months', () => {
  it('moves days across month, year and leap-day edges', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
  });

  it('moves months across year edges both ways', () => {
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-05', -11)).toBe('2025-06');
    expect(addMonths('2026-05', 0)).toBe('2026-05');
  });
});
