import { describe, expect, it } from 'vitest';
import { writeIndentedJson } from './indented-json.js';

function written(value: object): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeIndentedJson(value, (text) => pieces.push(text));
  return { text: pieces.join(''), pieces: pieces.length };
}

describe('writeIndentedJson', () => {
  it('writes the characters JSON.stringify(value, null, 2) and a newline give', () => {
    for (const value of [
      {},
      { a: [] },
      { a: undefined, b: () => 1 },
      { a: null, b: 'x\ny "z"', c: 1.5, d: { e: [1, { f: [] }], g: {} } },
      { list: [{ a: 1, b: [2, 3] }, null, 'ä', [[]], undefined], after: { x: 1 } },
      { a: undefined, list: [1] },
    ]) {
      expect(written(value).text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    }
  });

  it('writes a large array in pieces, never one string of it', () => {
    const value = {
      head: 1,
      subscriptions: Array.from({ length: 4000 }, (_, i) => ({
        phoneNumber: `+35840${i}`,
        lines: [{ label: 'Puhelut', amount: i / 100 }],
      })),
    };
    const { text, pieces } = written(value);
    expect(text).toBe(`${JSON.stringify(value, null, 2)}\n`);
    expect(pieces).toBeGreaterThan(2);
  });
});
