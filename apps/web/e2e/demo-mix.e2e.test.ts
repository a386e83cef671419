import { describe, expect } from 'vitest';
import type { CostUsage } from '@kulu/shared';
import { pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** The second demo company's admin. */
const SAIMAAN_ADMIN = 'jussi.makinen@saimaanlogistiikka.fi';

/**
 * Issue 37 item 18: Saimaan Logistiikka's figures were not believable (roaming 31 % of the cost, half
 * of its data abroad). Its dashboard's roaming card now shows a Finnish business's mix: EU roaming
 * priced as at home, trips further rare — a few per cent of the cost, most data at home.
 */
describe('the second demo company’s dashboard (Saimaan Logistiikka’s company admin)', () => {
  for (const [lang, width] of [
    ['en', 1400],
    ['fi', 390],
  ] as const)
    pageTest(
      browser,
      `shows roaming as a few per cent of the cost and most data used at home (${lang}, ${width} px)`,
      { shot: `demo-mix-${lang}-${width}`, as: SAIMAAN_ADMIN, lang, timeout: 240_000 },
      async (page) => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.getByTestId('dashboard-roaming').waitFor();
        // What the page asked for (its default period): the same call with the page's token.
        const figures = await page.evaluate(async () => {
          const res = await fetch('/api/dashboard/cost-usage', {
            headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
          });
          return (await res.json()) as CostUsage;
        });
        const total = Number(figures.totalCost);
        expect(total).toBeGreaterThan(0);
        expect(Number(figures.usage.roamingCost) / total).toBeLessThanOrEqual(0.05);
        expect(figures.usage.roamingDataMb).toBeGreaterThan(0);
        expect(figures.usage.roamingDataMb / figures.usage.dataMb).toBeLessThanOrEqual(0.1);
        const card = page.getByTestId('dashboard-roaming');
        await card.scrollIntoViewIfNeeded();
        // The card's euros are the answer's roaming cost as the language writes money.
        const euros = new Intl.NumberFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
          minimumFractionDigits: 2,
          maximumFractionDigits: 2,
        }).format(Number(figures.usage.roamingCost));
        await expect
          .poll(async () => (await card.innerText()).replace(/\s/g, ''))
          .toContain(euros.replace(/\s/g, ''));
        await screenshot(page, `demo-mix-${lang}-${width}`);
      },
    );
});
