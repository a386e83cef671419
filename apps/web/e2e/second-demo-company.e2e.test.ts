import { describe, expect } from 'vitest';
import { ALERT_RULE_LABELS, type AlertList, type CostUsage } from '@kulu/shared';
import { pageTest, pickOption, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** The second demo company's admin. */
const SAIMAAN_ADMIN = 'jussi.makinen@saimaanlogistiikka.fi';

/**
 * The second demo company as its company admin sees it, in English at 1400 px and Finnish at 390 px.
 * Issue 37 item 12: the same unchanged monthly service-number charge raised a new alert every month
 * (43 of Saimaan's 61 alerts); its Alerts page, filtered to service numbers, lists one alert for each
 * of its four numbers. Item 18: its figures were not believable (roaming 31 % of the cost, half of its
 * data abroad); its dashboard's roaming card shows a Finnish business's mix: EU roaming priced as at
 * home, trips further rare — a few per cent of the cost, most data at home.
 */
describe('the second demo company (Saimaan Logistiikka’s company admin)', () => {
  for (const [lang, width] of [
    ['en', 1400],
    ['fi', 390],
  ] as const) {
    pageTest(
      browser,
      `lists an unchanged service-number charge once, not every month: four alerts for four numbers (${lang}, ${width} px)`,
      {
        shot: `alert-noise-${lang}-${width}`,
        as: SAIMAAN_ADMIN,
        lang,
        path: '/company/alerts',
        ready: 'alerts-table',
      },
      async (page) => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.getByTestId('alerts-type').click();
        await pickOption(page, ALERT_RULE_LABELS.service_numbers[lang]);
        // Every state: another test may have acknowledged some (the alerts' own browser tests do).
        const answer = page.waitForResponse(
          (r) =>
            r.url().includes('/api/alerts?') &&
            r.url().includes('rule=service_numbers') &&
            !r.url().includes('state='),
        );
        const state = page.getByTestId('alerts-state');
        await state.hover();
        await state.locator('.ant-select-clear').click();
        const list = (await (await answer).json()) as AlertList;
        expect(list.items.map((a) => `${a.month} ${String(a.figures.phone)} ${a.text}`)).toHaveLength(4);
        expect(list.total).toBe(4);
        expect(new Set(list.items.map((a) => a.figures.phone)).size).toBe(4);
        const rows = page.getByTestId('alerts-table').locator('tbody tr.ant-table-row');
        await expect.poll(() => rows.count()).toBe(4);
        // Months in words ("Jun 2026" / "kesä 2026"), not ISO "2026-06" (item 19).
        const first = list.items[0]!.month.slice(0, 7);
        await rows
          .first()
          .getByText(new RegExp(`^\\p{L}+\\.? ${first.slice(0, 4)}$`, 'u'))
          .waitFor();
        expect(await page.getByTestId('alerts-table').getByText(first, { exact: true }).count()).toBe(0);
        await screenshot(page, `alert-noise-${lang}-${width}`);
      },
    );
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
  }
});
