import { describe, expect } from 'vitest';
import {
  USERS,
  euros,
  exportSheet,
  goto,
  pageTest,
  screenshot,
  switchLanguage,
  tableRows,
  useBrowser,
} from './browser';

const browser = useBrowser();

describe('cost and usage summaries', () => {
  pageTest(
    browser,
    'a company admin reads optimizable and other costs for the organization and by cost center, the usage, and exports; Finnish too',
    { shot: 'summaries', as: USERS.companyAdmin, path: '/company/report/cost-summaries' },
    async (page) => {
      const rows = tableRows(page, 'summary-table');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(1);
      const cells = await rows.first().locator('td').allInnerTexts();
      expect(cells[0]).toBe('Entire organization');
      const [optimizable, other, total] = cells.slice(1).map(euros);
      expect(optimizable).toBeGreaterThan(0);
      expect(Math.round((optimizable! + other!) * 100)).toBe(Math.round(total! * 100));

      await page.getByTestId('summary-group-by').getByText('By cost center').click();
      await expect.poll(() => rows.count()).toBeGreaterThan(1);
      // The totals row adds up the cost centers (one answer: the demo may still be importing).
      const totals = await page.getByTestId('summary-totals').locator('td').allInnerTexts();
      const centers = (await rows.allInnerTexts()).map((r) => euros(r.split('\t').pop()!));
      expect(Math.round(euros(totals[3]!) * 100)).toBe(Math.round(centers.reduce((a, b) => a + b, 0) * 100));
      await screenshot(page, 'cost-summaries-en');

      const { sheet } = await exportSheet(page, 'summary-export');
      expect(sheet.rowCount - 1).toBe(await rows.count());

      await goto(page, '/company/report/usage-summaries');
      await expect.poll(() => rows.count()).toBe(1);
      await page.getByTestId('summary-totals').waitFor();
      await screenshot(page, 'usage-summaries-en');

      // Finnish: both summaries.
      await switchLanguage(page, 'fi');
      await page.getByText('Koko organisaatio').first().waitFor();
      await screenshot(page, 'usage-summaries-fi');
      await goto(page, '/company/report/cost-summaries');
      await page.getByText('Optimoitavat kustannukset').first().waitFor();
      await screenshot(page, 'cost-summaries-fi');
    },
  );
});
