import { describe, expect, it } from 'vitest';
import { formatMonth } from './labels';

describe('formatMonth', () => {
  it('names the month in the interface language', () => {
    expect(formatMonth('2026-03', 'en')).toBe('March 2026');
    expect(formatMonth('2026-03-01', 'fi')).toBe('maaliskuu 2026');
    expect(formatMonth('soon', 'en')).toBe('soon');
  });
});
