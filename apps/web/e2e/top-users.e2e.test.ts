import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { USERS, goto, launchBrowser, login, openPage, screenshot, switchLanguage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

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
      const { context, page, errors } = await openPage(browser);
      await login(page, USERS.companyAdmin);
      await goto(page, '/company/report/top-users');
      const rows = page.getByTestId('top-users-table').locator('tr.ant-table-row');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(5);
      expect((await rows.first().innerText()).startsWith('1')).toBe(true);
      const totals = page.getByTestId('top-users-totals');
      const all = euros(await totals.innerText());
      expect(all).toBeGreaterThan(0);
      await screenshot(page, 'top-users-en');

      // Only optimizable costs: a smaller total. Other tests may still be adding invoices to this
      // company (data only grows), so it is compared with the whole total read after it.
      const toggle = page.getByTestId('top-users-optimizable');
      await toggle.click();
      await expect.poll(async () => euros(await totals.innerText())).not.toBe(all);
      const optimizable = euros(await totals.innerText());
      await toggle.click();
      await expect.poll(async () => euros(await totals.innerText())).not.toBe(optimizable);
      expect(optimizable).toBeLessThan(euros(await totals.innerText()));

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
