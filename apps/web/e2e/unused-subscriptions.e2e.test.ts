import { describe, expect } from 'vitest';
import { USERS, exportSheet, inFinnish, pageTest, screenshot, tableRows, useBrowser } from './browser';

const browser = useBrowser();

describe('unused subscriptions report', () => {
  pageTest(
    browser,
    'a company admin sees the demo’s unused subscriptions, changes N, exports them; Finnish too',
    { shot: 'unused-subscriptions', as: USERS.companyAdmin, path: '/company/report/Unused-Month-Count' },
    async (page) => {
      const rows = tableRows(page, 'unused-table');
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBeGreaterThan(0);
      const totals = page.getByTestId('unused-totals');
      await totals.getByText(/Unused subscriptions: \d+/).waitFor();
      const unused = async () => Number(/Unused subscriptions: (\d+)/.exec(await totals.innerText())![1]);
      const count = await unused();
      await screenshot(page, 'unused-subscriptions-en');

      // One month without use catches at least as many as the company's three.
      const months = page.getByTestId('unused-months');
      await months.fill('1');
      await months.press('Enter');
      await page.getByTestId('unused-window').waitFor();
      await expect.poll(unused).toBeGreaterThanOrEqual(count);

      const { sheet } = await exportSheet(page, 'unused-export');
      expect(sheet.getRow(1).getCell(2).value).toBe('Phone number');
      expect(sheet.rowCount).toBeGreaterThan(1);

      await inFinnish(page, 'unused-subscriptions', /Käyttämättömiä liittymiä: \d+/);
    },
  );
});
