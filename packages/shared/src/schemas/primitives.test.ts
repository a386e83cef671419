import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { idSchema, pagingQuery, settingsUpdateSchema, sortQuery, text } from '../index.js';

const codes = (r: z.ZodSafeParseResult<unknown>) => (r.success ? [] : r.error.issues.map((i) => i.message));

describe('request primitives', () => {
  it('accepts ids from 1 to 2147483647, from numbers and digit strings', () => {
    expect(idSchema.parse('12')).toBe(12);
    expect(idSchema.parse(2_147_483_647)).toBe(2_147_483_647);
  });

  it.each(['abc', '-1', '0', '1.5', '99999999999', '1e3', '0x10', '', 1.5, 0, 2_147_483_648])(
    'refuses the id %j with invalidId',
    (v) => {
      expect(codes(idSchema.safeParse(v))).toEqual(['invalidId']);
    },
  );

  it('keeps zod’s own message for a missing id, so forms can say "required"', () => {
    expect(codes(idSchema.safeParse(undefined))[0]).toMatch(/received undefined/);
  });

  it('pages from 1 to 1000000 with page sizes 1 to 200, defaulting to 1 and 20', () => {
    expect(pagingQuery.parse({})).toEqual({ page: 1, pageSize: 20 });
    for (const bad of [
      { page: '0' },
      { page: 'abc' },
      { pageSize: '201' },
      { pageSize: '-1' },
      { page: '1000001' },
    ]) {
      expect(codes(pagingQuery.safeParse(bad))).toEqual(['invalidPaging']);
    }
  });

  it('sorts only by the declared keys and asc/desc', () => {
    const q = sortQuery(['name', 'id']);
    expect(q.parse({})).toEqual({ order: 'asc' });
    expect(q.parse({ sort: 'id', order: 'desc' })).toEqual({ sort: 'id', order: 'desc' });
    expect(codes(q.safeParse({ sort: ';drop' }))).toEqual(['invalidSort']);
    expect(codes(q.safeParse({ order: 'sideways' }))).toEqual(['invalidSort']);
  });

  it('refuses control characters in one-line texts and allows line breaks only in multi-line ones', () => {
    expect(codes(text().safeParse('a\u0000b'))).toEqual(['controlCharacters']);
    expect(codes(text().safeParse('a\u0001b'))).toEqual(['controlCharacters']);
    expect(codes(text().safeParse('a\u007Fb'))).toEqual(['controlCharacters']);
    expect(codes(text().safeParse('a\nb'))).toEqual(['controlCharacters']);
    expect(text({ multiline: true }).parse('a\r\n\tb')).toBe('a\r\n\tb');
    expect(codes(text({ multiline: true }).safeParse('a\u0000b'))).toEqual(['controlCharacters']);
    expect(text().parse('  Äiti  ')).toBe('Äiti');
  });

  it('refuses an empty settings update', () => {
    expect(settingsUpdateSchema.safeParse({}).success).toBe(false);
    expect(settingsUpdateSchema.parse({ languageID: 2 })).toEqual({ languageID: 2 });
  });
});
