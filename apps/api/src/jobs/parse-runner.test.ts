import { describe, expect, it } from 'vitest';
import { generateInvoice, generatePlainPdf } from '@kulu/invoices';
import { parseInWorker, stopParseWorker } from './parse-runner.js';

describe('parse in a worker thread', () => {
  it('parses, reports bad input, and survives a timeout with a fresh worker', async () => {
    const { pdf, expected } = await generateInvoice({ operator: 'dna', subscriptions: 5, seed: 9 });
    expect(await parseInWorker(pdf)).toEqual(expected);
    await expect(parseInWorker(await generatePlainPdf(['Ei lasku']))).rejects.toMatchObject({
      code: 'not_a_valid_invoice',
    });
    await expect(parseInWorker(pdf, { timeoutMs: 1 })).rejects.toMatchObject({ code: 'timeout' });
    expect(await parseInWorker(pdf)).toEqual(expected);
    await stopParseWorker();
  }, 60_000);

  it('ends only the worker when the parse runs out of its heap', async () => {
    const { pdf } = await generateInvoice({ operator: 'elisa', subscriptions: 40, seed: 3 });
    const res = await parseInWorker(pdf, { maxOldGenerationSizeMb: 4 }).catch((e: { code: string }) => e);
    expect(['out_of_memory', 'internal']).toContain((res as { code: string }).code);
    expect((await parseInWorker(pdf)).subscriptions).toHaveLength(40);
    await stopParseWorker();
  }, 60_000);
});
