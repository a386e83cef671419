import { describe, expect, it } from 'vitest';
import { parseInvoice } from './registry.js';
import { extractText } from './text/extract.js';
import { OPERATOR_IDS, expectSameInvoice, expectedFixture, fixture } from './test-helpers.js';

describe('operator samples', () => {
  it.each(OPERATOR_IDS)('%s sample parses to its expected JSON, field by field', async (id) => {
    const parsed = await parseInvoice(fixture(`${id}-sample.pdf`));
    expectSameInvoice(parsed, expectedFixture(`${id}-sample.expected.json`), id);
  });

  it('reads positioned text top-down with empty items filtered and lines sorted by x', async () => {
    const doc = await extractText(fixture('elisa-sample.pdf'));
    expect(doc.pages).toHaveLength(2);
    const [first] = doc.pages;
    expect(first.width).toBeCloseTo(595.28, 1);
    expect(first.lines[0].text).toBe('Elisa Oyj LASKU');
    for (const page of doc.pages) {
      for (let i = 1; i < page.lines.length; i++)
        expect(page.lines[i].y).toBeGreaterThan(page.lines[i - 1].y);
      for (const line of page.lines) {
        expect(line.items.every((it) => it.str.trim() !== '')).toBe(true);
        for (let i = 1; i < line.cells.length; i++)
          expect(line.cells[i].x0).toBeGreaterThan(line.cells[i - 1].x0);
      }
    }
    expect(first.lines.at(-1)?.text).toMatch(/Sivu 1 \/ 2$/);
  });

  it('keeps a subscription whose section breaks across pages in one piece (Elisa sample, "(jatkuu)")', async () => {
    const parsed = await parseInvoice(fixture('elisa-sample.pdf'));
    const continued = parsed.subscriptions.filter((s) => s.phoneNumber === '+358452514604');
    expect(continued).toHaveLength(1);
    expect(continued[0]).toMatchObject({ userName: 'Åsa Virtanen-Åberg', costCenter: '1002', total: 14.9 });
  });

  it('reads credits and negative subscription totals', async () => {
    const dna = await parseInvoice(fixture('dna-sample.pdf'));
    expect(dna.subscriptions[1].total).toBe(-11.51);
    expect(dna.subscriptions[1].lines.at(-1)).toMatchObject({
      label: 'Hyvitys',
      category: 'discount',
      amount: -41.41,
    });
    expect(dna.otherLines.map((l) => l.amount)).toEqual([3.9, -15]);
  });
});
