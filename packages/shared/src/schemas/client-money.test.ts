import { describe, expect, it } from 'vitest';
import {
  firstOfMonth,
  isInCurrentMonthUpToToday,
  isNotAfterToday,
  paymentSection,
  supportCost,
  supportSection,
} from './client-money.js';

describe('day rules', () => {
  it('a payment day is today or before', () => {
    expect(isNotAfterToday('2026-11-23', '2026-11-23')).toBe(true);
    expect(isNotAfterToday('2020-01-01', '2026-11-23')).toBe(true);
    expect(isNotAfterToday('2026-11-24', '2026-11-23')).toBe(false);
  });
  it('a support day lies between the first of the month and today', () => {
    expect(firstOfMonth('2026-11-23')).toBe('2026-11-01');
    expect(isInCurrentMonthUpToToday('2026-11-01', '2026-11-23')).toBe(true);
    expect(isInCurrentMonthUpToToday('2026-11-23', '2026-11-23')).toBe(true);
    expect(isInCurrentMonthUpToToday('2026-11-24', '2026-11-23')).toBe(false);
    expect(isInCurrentMonthUpToToday('2026-10-31', '2026-11-23')).toBe(false);
    expect(isInCurrentMonthUpToToday('2025-11-10', '2026-11-23')).toBe(false);
    // On the first of the month only that day counts.
    expect(isInCurrentMonthUpToToday('2026-12-01', '2026-12-01')).toBe(true);
    expect(isInCurrentMonthUpToToday('2026-11-30', '2026-12-01')).toBe(false);
  });
});

describe('payment and support schemas', () => {
  it('takes amounts as numbers or strings with a decimal comma, and refuses 0 with its code', () => {
    expect(paymentSection.input.parse({ paymentDate: '2026-11-01', amount: '12,5' }).amount).toBe('12.5');
    expect(paymentSection.input.parse({ paymentDate: '2026-11-01', amount: 3 }).amount).toBe('3');
    const zero = paymentSection.input.safeParse({ paymentDate: '2026-11-01', amount: '0' });
    expect(zero.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['amount', 'paymentAmountPositive'],
    ]);
    const word = paymentSection.input.safeParse({ paymentDate: '2026-11-01', amount: 'abc' });
    expect(word.error?.issues.map((i) => i.message)).not.toContain('paymentAmountPositive');
  });
  it('refuses hours of 0 or less with its code and more than four whole digits', () => {
    const neg = supportSection.input.safeParse({ supportDate: '2026-11-01', hours: -1 });
    expect(neg.error?.issues.map((i) => i.message)).toEqual(['supportHoursPositive']);
    expect(supportSection.input.safeParse({ supportDate: '2026-11-01', hours: '10000' }).success).toBe(false);
    expect(supportSection.input.parse({ supportDate: '2026-11-01', hours: '0.25' }).hours).toBe('0.25');
  });
});

describe('support cost', () => {
  it('is hours × fee to the cent, exactly', () => {
    expect(supportCost('3.50', '90.00')).toBe('315.00');
    expect(supportCost('0.25', '33.33')).toBe('8.33'); // 8.3325
    expect(supportCost('1.5', '0.99')).toBe('1.49'); // 1.485 → half up
    expect(supportCost('0', '90')).toBe('0.00');
  });
});
