import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSerializerCompiler } from './serializer.js';

const compile = (schema: z.ZodType, verify: boolean) =>
  createSerializerCompiler({ verify })({ schema, method: 'GET', url: '/api/x', httpStatus: '200' }) as (
    data: unknown,
  ) => string;

const invoice = z.object({
  id: z.number().int(),
  name: z.string(),
  total: z.string().nullable(),
  state: z.enum(['in_progress', 'uploaded', 'failed']),
  note: z.string().optional(),
  lines: z.array(z.object({ label: z.string(), amount: z.number() })),
});
const row = {
  id: 7,
  name: 'Elisa "marraskuu" \u2028',
  total: null,
  state: 'uploaded',
  lines: [{ label: 'Kuukausimaksu', amount: 12.5 }],
  passwordHash: '$argon2id$secret',
};

describe('response serializer', () => {
  it('writes what zod writes, byte for byte, and never a property the schema does not declare', () => {
    const fast = compile(invoice, false);
    const viaZod = JSON.stringify(invoice.parse(row));
    expect(fast(row)).toBe(viaZod);
    expect(fast(row)).not.toContain('argon2');
    expect(compile(invoice, true)(row)).toBe(viaZod);
  });

  it('is compiled from the JSON schema (it writes a numeric string as a number where zod refuses it)', () => {
    const bad = { ...row, id: '7' };
    expect(JSON.parse(compile(invoice, false)(bad)).id).toBe(7);
    // The test suites' mode writes it both ways and refuses the answer.
    expect(() => compile(invoice, true)(bad)).toThrow();
  });

  it("falls back to zod's serializer for what JSON schema cannot express", () => {
    const at = new Date('2026-11-25T03:00:00.000Z');
    expect(compile(z.object({ at: z.date() }), false)({ at })).toBe('{"at":"2026-11-25T03:00:00.000Z"}');
  });
});
