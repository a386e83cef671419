import { describe, expect } from 'vitest';
import {
  USERS,
  expectTopUsersSheet,
  exportSheet,
  inFinnish,
  pageTest,
  pickOption,
  screenshot,
  useBrowser,
} from './browser';

const browser = useBrowser();

describe('report archive / downloads', () => {
  pageTest(
    browser,
    'a company admin schedules an export, sees it turn Ready, downloads it and the file opens; Finnish too',
    { shot: 'downloads', as: USERS.companyAdmin, path: '/company/report/downloads' },
    async (page) => {
      await page.getByTestId('downloads-page').waitFor();
      // The executive report is listed as coming soon and cannot be chosen.
      await page.getByTestId('export-kind').click();
      await expect
        .poll(() =>
          page
            .locator('.ant-select-dropdown:visible .ant-select-item-option-disabled')
            .filter({ hasText: 'Executive report' })
            .count(),
        )
        .toBe(1);
      await pickOption(page, 'Top users');
      // The period starts at the reports' default, the twelve months up to the latest invoice
      // month, and that is what is scheduled.
      // (the range picker gives each of its two inputs the test id)
      const months = page.getByTestId('export-period');
      await expect.poll(() => months.nth(1).inputValue()).toMatch(/^\d{4}-\d{2}$/);
      const [from, to] = [await months.nth(0).inputValue(), await months.nth(1).inputValue()];
      const span = (a: string, b: string) =>
        (Number(b.slice(0, 4)) - Number(a.slice(0, 4))) * 12 + Number(b.slice(5)) - Number(a.slice(5));
      expect(span(from, to)).toBe(11);
      await page.getByTestId('export-schedule').click();

      // The new export shows first: Scheduled, then Ready with its download date.
      const first = page.locator('tr.ant-table-row').first();
      await first.getByText('Top users').waitFor();
      await first.getByText(`${from} – ${to}`).waitFor();
      await expect.poll(() => first.getByText('Ready').count(), { timeout: 60_000 }).toBe(1);
      await screenshot(page, 'downloads-en');

      const { file, sheet } = await exportSheet(page, first.getByRole('button', { name: /Download/ }));
      expect(file.suggestedFilename()).toMatch(/^top-users-.*\.xlsx$/);
      expectTopUsersSheet(sheet);

      await inFinnish(page, 'downloads', 'Ajasta raportti');
      await first.getByText('Valmis').waitFor();

      // Deleting asks first, then the export is gone.
      const count = await page.locator('tr.ant-table-row').count();
      await first.getByRole('button', { name: /Poista/ }).click();
      await page
        .locator('.ant-popconfirm')
        .getByRole('button', { name: /Poista/ })
        .click();
      await expect.poll(() => page.locator('tr.ant-table-row').count()).toBe(count - 1);
    },
  );
});
