import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { USERS, goto, login, openPage, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

/** "… · Total cost: €1,234.56" (English) → 1234.56 */
const euros = (text: string) =>
  Number(
    text
      .split(':')
      .pop()!
      .replace(/[^\d.]/g, ''),
  );

describe('top users report', () => {
  it(
    'a company admin ranks the subscriptions, keeps only optimizable costs and exports; Finnish too',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.companyAdmin);
      await goto(page, '/company/report/top-users');
      const rows = page.getByTestId('top-users-table').locator('tr.ant-table-row');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
      expect((await rows.first().innerText()).startsWith('1')).toBe(true);
      const totals = page.getByTestId('top-users-totals');
      const all = euros(await totals.innerText());
      expect(all).toBeGreaterThan(0);
      await screenshot(page, 'top-users-en');

      // Only optimizable costs: the screen asks for them and shows that answer's total. (It need
      // not be smaller: credits and one-off charges that other tests upload are not optimizable.)
      const optimizable = page.waitForResponse(
        (r) => r.url().includes('/api/reports/top-users?') && r.url().includes('optimizableOnly=true'),
      );
      await page.getByTestId('top-users-optimizable').click();
      const answer = (await (await optimizable).json()) as { totals: { cost: string } };
      await expect.poll(async () => euros(await totals.innerText())).toBe(Number(answer.totals.cost));

      const download = page.waitForEvent('download');
      await page.getByTestId('top-users-export').click();
      const file = await download;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await file.path())!);
      const ws = wb.worksheets[0]!;
      expect(ws.getRow(1).getCell(1).value).toBe('Rank');
      expect(ws.getRow(2).getCell(1).value).toBe(1);
      expect(ws.rowCount).toBeGreaterThan(5);

      await switchLanguage(page, 'fi');
      await page.getByText('Vain optimoitavat kustannukset').waitFor();
      await page.getByText(/Kustannukset yhteensä/).waitFor();
      await screenshot(page, 'top-users-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
