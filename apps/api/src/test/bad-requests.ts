import { expect } from 'vitest';
import type { TestApp } from './helpers.js';

/**
 * Each GET of `base` followed by one of `tails` (a query string, or the rest of a path) answers 400
 * with a message: bad input (a filter, sort, page, period or id) is refused, never a 5xx or a list.
 */
export async function expectEachBadRequest(
  t: Pick<TestApp, 'inject'>,
  token: string,
  base: string,
  tails: readonly string[],
): Promise<void> {
  for (const tail of tails) {
    const res = await t.inject({ method: 'GET', url: `${base}${tail}`, token });
    expect(res.statusCode, tail).toBe(400);
    expect(res.json().message, tail).toBeTruthy();
  }
}
