import { describe, expect } from 'vitest';
import { ALERT_RULE_LABELS, type AlertList } from '@kulu/shared';
import { pageTest, pickOption, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** The second demo company's admin: Saimaan Logistiikka pays the same service-number charges each month. */
const SAIMAAN_ADMIN = 'jussi.makinen@saimaanlogistiikka.fi';

/**
 * Issue 37 item 12: the same unchanged monthly service-number charge raised a new alert every month
 * (43 of Saimaan's 61 alerts). Its Alerts page, filtered to service numbers, lists one alert for each
 * of its four numbers.
 */
describe('alert noise (Saimaan Logistiikka’s company admin)', () => {
  for (const [lang, width] of [
    ['en', 1400],
    ['fi', 390],
  ] as const)
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
        const answer = page.waitForResponse(
          (r) => r.url().includes('/api/alerts?') && r.url().includes('rule=service_numbers'),
        );
        await page.getByTestId('alerts-type').click();
        await pickOption(page, ALERT_RULE_LABELS.service_numbers[lang]);
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
});
