import { describe, expect, it } from 'vitest';
import { isValidBusinessId } from './business-id.js';
import { businessIdSchema } from './schemas/auth.js';

describe('isValidBusinessId', () => {
  it('accepts real business ids with their check digit', () => {
    // Remainder 0 → check digit 0 (2345678-0), and ordinary ones.
    for (const id of ['0737546-2', '2345678-0', '1572860-0', '1234567-1', '0112038-9']) {
      expect(isValidBusinessId(id), id).toBe(true);
    }
  });

  it('refuses a wrong check digit', () => {
    expect(isValidBusinessId('0737546-3')).toBe(false);
    expect(isValidBusinessId('1234567-8')).toBe(false);
  });

  it('refuses ids whose remainder is 1 (never issued), whatever the last digit', () => {
    // 0000006: 6 × 2 = 12, remainder 1.
    for (let d = 0; d <= 9; d++) expect(isValidBusinessId(`0000006-${d}`)).toBe(false);
  });

  it('refuses anything but seven digits, a hyphen and one digit', () => {
    for (const id of ['07375462', '737546-2', '0737546-22', '0737546 2', ' 0737546-2', 'ABCDEFG-1', '']) {
      expect(isValidBusinessId(id), JSON.stringify(id)).toBe(false);
    }
  });

  it('is the rule of the shared business id schema', () => {
    expect(businessIdSchema.safeParse(' 0737546-2 ').success).toBe(true);
    expect(businessIdSchema.safeParse('0737546-3').success).toBe(false);
  });
});
