import { describe, expect } from 'vitest';
import { USERS, exportSheet, inFinnish, pageTest, screenshot, tableRows, useBrowser } from './browser';

const browser = useBrowser();

describe('client contracts report', () => {
  pageTest(
    browser,
    'an admin lists the active contracts with their costs and exports them; Finnish too',
    { shot: 'client-contracts', as: USERS.admin, path: '/admin/reports/client-contracts' },
    async (page) => {
      const rows = tableRows(page, 'client-contracts-table');
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

      const { sheet } = await exportSheet(page, 'client-contracts-export');
      expect(sheet.getRow(1).getCell(2).value).toBe('Business ID');
      expect(sheet.rowCount - 1).toBe(await rows.count());

      await inFinnish(page, 'client-contracts', /Sopimuksia: \d+/);
    },
  );
});
