import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, pageTest, reloadUntil, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

/** The demo invoices are parsed in the background after start: reload until the total has costs. */
async function waitForFigures(page: Page): Promise<string> {
  const total = page.getByTestId('dashboard-total-cost').locator('.ant-statistic-content');
  let text = '';
  await reloadUntil(
    page,
    async () => {
      await total.waitFor();
      text = (await total.innerText()).trim();
      return /[1-9]/.test(text);
    },
    'costs on the dashboard',
  );
  return text;
}

describe('cost and usage dashboard (company admin)', () => {
  pageTest(
    browser,
    'lands on the dashboard after login and sees the demo invoices as totals, a trend and tables',
    { shot: 'dashboard-cost-usage', as: USERS.companyAdmin, timeout: 420_000 },
    async (page) => {
      await page.waitForURL(/#\/company\/dashboard\/costAndUsage$/);
      await page.getByRole('heading', { name: 'Cost and Usage' }).waitFor();

      const total = await waitForFigures(page);
      expect(total).toMatch(/^€[\d,]+\.\d{2}$/);
      await page.getByTestId('dashboard-trend-chart').locator('canvas').waitFor();
      await page.getByTestId('dashboard-categories-chart').locator('canvas').waitFor();
      await page.getByTestId('dashboard-users-chart').locator('canvas').waitFor();

      // The table view of the trend lists the months with their costs.
      await page.getByTestId('dashboard-trend-view').locator('.ant-segmented-item').nth(1).click();
      const months = page.getByTestId('dashboard-trend-table');
      await months.getByRole('columnheader', { name: 'Voice minutes' }).waitFor();
      expect(await months.locator('tbody tr').count()).toBeGreaterThanOrEqual(12);
      await screenshot(page, 'dashboard-cost-usage-en');

      // The slices as bars: the cost centers, and the sub-companies (the demo company has two with cost).
      const subCompanies = page.getByTestId('dashboard-sub-companies');
      await page.getByTestId('dashboard-cost-centers').locator('canvas').waitFor();
      await subCompanies.locator('canvas').waitFor();
      await subCompanies.scrollIntoViewIfNeeded();
      await screenshot(page, 'dashboard-slices-en');

      // A sub-company filter asks again and shows at most the client's total.
      const subCompany = page.getByTestId('dashboard-sub-company');
      if (await subCompany.count()) {
        const answered = page.waitForResponse(
          (r) => r.url().includes('/api/dashboard/cost-usage') && r.url().includes('subCompanyId='),
        );
        await subCompany.click();
        await page.locator('.ant-select-dropdown .ant-select-item-option').first().click();
        expect((await answered).ok()).toBe(true);
      }

      await switchLanguage(page, 'fi');
      await page.reload();
      await page.getByRole('heading', { name: 'Kustannukset ja käyttö' }).waitFor();
      await page
        .getByTestId('dashboard-total-cost')
        .getByText(/\d,\d{2}\s€/)
        .waitFor();
      await screenshot(page, 'dashboard-cost-usage-fi');
      await page.getByTestId('dashboard-sub-companies').scrollIntoViewIfNeeded();
      await screenshot(page, 'dashboard-slices-fi');
      await switchLanguage(page, 'en');
    },
  );
});
