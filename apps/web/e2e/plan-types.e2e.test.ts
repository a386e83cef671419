import { describe, expect } from 'vitest';
import { USERS, euros, inFinnish, pageTest, pickOption, screenshot, useBrowser } from './browser';

const browser = useBrowser();

describe('base plan types report', () => {
  pageTest(
    browser,
    'a consultant picks a client and sees its cost per plan group as a chart and a table; Finnish too',
    { shot: 'plan-types', as: USERS.consultant, path: '/admin/reports/base-plan-types' },
    async (page) => {
      await page.getByTestId('plan-types-client').click();
      await pickOption(page, 'Pohjola Rakennus Oy');
      const totals = page.getByTestId('plan-types-totals');
      await totals.getByText(/Subscriptions: \d+/).waitFor({ timeout: 30_000 });
      await page.getByTestId('plan-types-chart').locator('canvas').first().waitFor();
      await screenshot(page, 'plan-types-en');
      // The table view: a row per group, the costs add up to the total.
      await page.getByTestId('plan-types-chart-view').locator('.ant-segmented-item').nth(1).click();
      const rows = page.getByTestId('plan-types-chart').locator('tr.ant-table-row');
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      const sum = (await rows.allInnerTexts())
        .map((r) => euros(r.split('\t').pop()!))
        .reduce((a, b) => a + b, 0);
      // "Subscriptions: n · Invoice-level charges: −€x · Total cost: €y": the rows and the
      // invoice-level charges (signed) make the total.
      const [, invoiceLevel, total] = (await totals.innerText())
        .split('·')
        .map((part) => euros(part.split(':').pop()!.replace('−', '-')));
      expect(Math.round(sum * 100) + Math.round(invoiceLevel! * 100)).toBe(Math.round(total! * 100));

      await inFinnish(page, 'plan-types', /Liittymiä: \d+/);
    },
  );
});
