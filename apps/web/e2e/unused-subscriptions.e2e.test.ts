import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { USERS, goto, login, openPage, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

describe('unused subscriptions report', () => {
  it(
    'a company admin sees the demo’s unused subscriptions, changes N, exports them; Finnish too',
    { timeout: 180_000 },
    async () => {
      const { context, page, errors } = await openPage(browser());
      await login(page, USERS.companyAdmin);
      await goto(page, '/company/report/Unused-Month-Count');
      const rows = page.getByTestId('unused-table').locator('tr.ant-table-row');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      const totals = page.getByTestId('unused-totals');
      await totals.getByText(/Unused subscriptions: \d+/).waitFor();
      const count = Number(/Unused subscriptions: (\d+)/.exec(await totals.innerText())![1]);
      await screenshot(page, 'unused-subscriptions-en');

      // One month without use catches at least as many as the company's three.
      const months = page.getByTestId('unused-months');
      await months.fill('1');
      await months.press('Enter');
      await page.getByTestId('unused-window').waitFor();
      await expect
        .poll(async () => Number(/Unused subscriptions: (\d+)/.exec(await totals.innerText())![1]))
        .toBeGreaterThanOrEqual(count);

      const download = page.waitForEvent('download');
      await page.getByTestId('unused-export').click();
      const file = await download;
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile((await file.path())!);
      const ws = wb.worksheets[0]!;
      expect(ws.getRow(1).getCell(2).value).toBe('Phone number');
      expect(ws.rowCount).toBeGreaterThan(1);

      await switchLanguage(page, 'fi');
      await page.getByText(/Käyttämättömiä liittymiä: \d+/).waitFor();
      await screenshot(page, 'unused-subscriptions-fi');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
