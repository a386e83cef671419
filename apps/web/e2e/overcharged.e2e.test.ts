import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { USERS, baseUrl, goto, login, openPage, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

/** "€12,345.67" (English) → 12345.67 */
const euros = (text: string) => Number(text.replace(/[^\d.-]/g, ''));

describe('overcharged plans report', () => {
  it(
    'a company admin sees the months billed above the plan price with the sum to claim back, exports them; Finnish too',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.companyAdmin);
      // The company agrees a lower contract price for one plan (Plan Details, as a script would):
      // the months the operator billed above it become overcharges.
      const token = await page.evaluate(() => localStorage.getItem('token') ?? '');
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const details = (await (
        await fetch(`${baseUrl()}/api/plan-details?pageSize=1`, { headers })
      ).json()) as {
        items: Array<{ subscriptionId: number; planId: number }>;
      };
      const [first] = details.items;
      const saved = await fetch(`${baseUrl()}/api/plan-details/${first!.subscriptionId}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ planId: first!.planId, contractPrice: '1.00' }),
      });
      expect(saved.status).toBe(200);
      await goto(page, '/company/report/overcharged-plans');
      const totals = page.getByTestId('overcharged-totals');
      await totals.getByText(/Lines: \d+/).waitFor({ timeout: 30_000 });
      const lines = Number(/Lines: (\d+)/.exec(await totals.innerText())![1]);
      expect(lines).toBeGreaterThan(0);
      const rows = page.getByTestId('overcharged-table').locator('tr.ant-table-row');
      const cells = await rows.first().locator('td').allInnerTexts();
      const [expected, billed, difference] = cells.slice(4, 7).map(euros);
      expect(difference).toBeGreaterThan(0);
      expect(Math.round((billed! - expected!) * 100)).toBe(Math.round(difference! * 100));
      await screenshot(page, 'overcharged-en');

      const download = page.waitForEvent('download');
      await page.getByTestId('overcharged-export').click();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await (await download).path())!);
      expect(wb.worksheets[0]!.getRow(1).getCell(7).value).toBe('Difference (€)');
      expect(wb.worksheets[0]!.rowCount - 1).toBeGreaterThanOrEqual(Math.min(lines, 1));

      await switchLanguage(page, 'fi');
      await page.getByText(/Takaisin perittävää/).waitFor();
      await screenshot(page, 'overcharged-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
