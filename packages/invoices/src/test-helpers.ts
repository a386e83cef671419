import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ParsedInvoice } from './types.js';

export const OPERATOR_IDS = ['elisa', 'telia', 'dna'] as const;

export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
}

export function expectedFixture(name: string): ParsedInvoice {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as ParsedInvoice;
}

/** Field-by-field comparison (header fields, then every subscription and line) for readable failures. */
export function expectSameInvoice(actual: ParsedInvoice, expected: ParsedInvoice, context = ''): void {
  const { subscriptions: subs, otherLines: other, ...header } = expected;
  for (const [key, value] of Object.entries(header)) {
    expect(actual[key as keyof ParsedInvoice], `${context} header.${key}`).toEqual(value);
  }
  expect(
    actual.subscriptions.map((s) => s.phoneNumber),
    `${context} subscriptions`,
  ).toEqual(subs.map((s) => s.phoneNumber));
  subs.forEach((sub, i) => {
    const got = actual.subscriptions[i];
    const { lines, ...fields } = sub;
    for (const [key, value] of Object.entries(fields)) {
      expect(got[key as keyof typeof got], `${context} subscriptions[${i}].${key}`).toEqual(value);
    }
    expect(got.lines.length, `${context} subscriptions[${i}] (${sub.phoneNumber}) line count`).toBe(
      lines.length,
    );
    lines.forEach((line, j) =>
      expect(got.lines[j], `${context} subscriptions[${i}].lines[${j}]`).toEqual(line),
    );
  });
  expect(actual.otherLines, `${context} otherLines`).toEqual(other);
  // and nothing more than the contract
  expect(actual).toEqual(expected);
}
