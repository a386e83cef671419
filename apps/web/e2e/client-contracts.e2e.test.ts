import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { USERS, goto, login, openPage, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

describe('client contracts report', () => {
  it(
    'an admin lists the active contracts with their costs and exports them; Finnish too',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.admin);
      await goto(page, '/admin/reports/client-contracts');
      const rows = page.getByTestId('client-contracts-table').locator('tr.ant-table-row');
      await expect
        .poll(() => rows.allInnerTexts(), { timeout: 30_000 })
        .toEqual(expect.arrayContaining([expect.stringContaining('Pohjola Rakennus Oy')]));
      await page.getByTestId('client-contracts-state').getByText('Active', { exact: true }).click();
      await expect
        .poll(async () => (await rows.allInnerTexts()).every((r) => r.includes('Active')), {
          timeout: 15_000,
        })
        .toBe(true);
      // The demo contract: 160 plans on the standard plan, €333.00 a month.
      const pohjola = rows.filter({ hasText: 'Pohjola Rakennus Oy' }).first();
      expect(await pohjola.innerText()).toContain('€333.00');
      await page
        .getByTestId('client-contracts-totals')
        .getByText(/Contracts: \d+/)
        .waitFor();
      await screenshot(page, 'client-contracts-en');

      const download = page.waitForEvent('download');
      await page.getByTestId('client-contracts-export').click();
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await (await download).path())!);
      const ws = wb.worksheets[0]!;
      expect(ws.getRow(1).getCell(2).value).toBe('Business ID');
      expect(ws.rowCount - 1).toBe(await rows.count());

      await switchLanguage(page, 'fi');
      await page.getByText(/Sopimuksia: \d+/).waitFor();
      await screenshot(page, 'client-contracts-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
