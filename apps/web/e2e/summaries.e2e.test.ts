import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { USERS, goto, login, openPage, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

/** "€12,345.67" or "-€5.00" (English) → 12345.67, -5 */
const euros = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

describe('cost and usage summaries', () => {
  it(
    'a company admin reads optimizable and other costs for the organization and by cost center, the usage, and exports; Finnish too',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.companyAdmin);
      await goto(page, '/company/report/cost-summaries');
      const table = page.getByTestId('summary-table');
      const rows = table.locator('tr.ant-table-row');
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

      const download = page.waitForEvent('download');
      await page.getByTestId('summary-export').click();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await (await download).path())!);
      expect(wb.worksheets[0]!.rowCount - 1).toBe(await rows.count());

      await goto(page, '/company/report/usage-summaries');
      await expect.poll(() => page.getByTestId('summary-table').locator('tr.ant-table-row').count()).toBe(1);
      await page.getByTestId('summary-totals').waitFor();
      await screenshot(page, 'usage-summaries-en');

      await switchLanguage(page, 'fi');
      await page.getByText('Koko organisaatio').first().waitFor();
      await screenshot(page, 'usage-summaries-fi');
      await goto(page, '/company/report/cost-summaries');
      await page.getByText('Optimoitavat kustannukset').first().waitFor();
      await screenshot(page, 'cost-summaries-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
