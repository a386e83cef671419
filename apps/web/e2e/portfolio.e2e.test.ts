import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  addClient,
  apiOf,
  exportSheet,
  login,
  onPage,
  screenshot,
  switchLanguage,
  tableRows,
  useBrowser,
} from './browser';

const browser = useBrowser();

const rowsOf = (page: Page) => tableRows(page, 'portfolio-table');

describe('the provider portfolio', () => {
  it(
    'the provider admin lands on it, sees every company with its figures, searches, sorts, exports and opens a dashboard; Finnish too',
    { timeout: 240_000 },
    () =>
      onPage(browser(), 'portfolio-admin', async (page) => {
        await login(page, USERS.admin);
        await page.waitForURL(/#\/admin\/portfolio$/);
        await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
        const rows = rowsOf(page);
        const pohjola = rows.filter({ hasText: 'Pohjola Rakennus Oy' });
        await pohjola.waitFor();
        await rows.filter({ hasText: 'Saimaan Logistiikka Oy' }).waitFor();
        // This month's demo invoices are in: Pohjola's cost is a euro figure above zero.
        await expect
          .poll(async () => /[1-9][\d,.\s]*\s?€|€\s?[1-9]/.test(await pohjola.innerText()))
          .toBe(true);
        await page.getByTestId('portfolio-totals').waitFor();
        // Open alerts by severity: the tags show what the Alerts bell counts for the company.
        await page.getByRole('columnheader', { name: 'Open alerts' }).waitFor();
        const pohjolaId = Number(
          (await pohjola.getByRole('link').getAttribute('href'))!.match(/clientId=(\d+)/)![1],
        );
        const count = await (await apiOf(page)).get<{ open: number }>(`/alerts/count?clientId=${pohjolaId}`);
        const tags = pohjola.getByTestId(`portfolio-alerts-${pohjolaId}`).locator('.ant-tag');
        const shown = async () => (await tags.allInnerTexts()).reduce((n, x) => n + Number(x), 0);
        await expect.poll(shown).toBe(count.open);
        await screenshot(page, 'portfolio-admin-en');

        // Sort by this month's cost, highest first (the header twice: ascending, then descending).
        const header = page
          .getByTestId('portfolio-table')
          .locator('th')
          .filter({ hasText: /^Cost / })
          .first();
        await header.click();
        await header.click();
        await expect.poll(() => page.url()).toContain('/admin/portfolio');

        // Search by name.
        await page.getByPlaceholder('Search by company or business ID').fill('Saimaan');
        await expect.poll(() => rows.count()).toBe(1);
        await rows.filter({ hasText: 'Saimaan Logistiikka Oy' }).waitFor();
        await page.getByPlaceholder('Search by company or business ID').fill('');
        await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2);

        // Only those with missing invoices: every row left has a missing-invoice tag.
        await page.getByTestId('portfolio-only-missing').click();
        await expect
          .poll(
            async () =>
              (await rows.count()) === (await rows.locator('[data-testid^=portfolio-missing-]').count()),
          )
          .toBe(true);
        await page.getByTestId('portfolio-only-missing').click();
        await pohjola.waitFor();

        const { sheet } = await exportSheet(page, 'portfolio-export');
        expect(sheet.getRow(1).getCell(1).value).toBe('Company');
        const names = Array.from(
          { length: sheet.rowCount - 1 },
          (_, i) => sheet.getRow(i + 2).getCell(1).value,
        );
        expect(names).toEqual(expect.arrayContaining(['Pohjola Rakennus Oy', 'Saimaan Logistiikka Oy']));

        await switchLanguage(page, 'fi');
        await page.getByRole('heading', { name: 'Asiakassalkku' }).waitFor();
        await page.getByText('Toteutuneet säästöt / kk').first().waitFor();
        await page.getByRole('columnheader', { name: 'Avoimet hälytykset' }).waitFor();
        await page.getByText('Yhteensä').first().waitFor();
        await screenshot(page, 'portfolio-admin-fi');

        // A company's name opens its dashboard, the client already chosen.
        await pohjola.getByRole('link', { name: 'Pohjola Rakennus Oy' }).click();
        await page.waitForURL(/#\/admin\/dashboard\/costAndUsage\?clientId=\d+$/);
        await page.getByTestId('cost-usage-filters').getByText('Pohjola Rakennus Oy').waitFor();
        await page.getByTestId('dashboard-total-cost').waitFor();
        await switchLanguage(page, 'en');
      }),
  );

  it(
    'a consultant sees only the assigned companies, in Finnish and English',
    { timeout: 240_000 },
    async () => {
      const unassigned = `Ei Osoitettu ${Date.now().toString(36)} Oy`;
      await onPage(browser(), 'portfolio-unassigned', async (page) => {
        await login(page, USERS.admin);
        // A customer company (assigned to no consultant).
        await addClient(await apiOf(page), {
          kind: 'company',
          companyName: unassigned,
          email: `portfolio-${Date.now()}@unassigned.test`,
          adminName: 'Una Assigned',
          invoiceUploadMethod: 'manual',
        });
        // The admin sees the new company…
        await page.getByPlaceholder('Search by company or business ID').fill('Ei Osoitettu');
        await rowsOf(page).filter({ hasText: unassigned }).waitFor();
      });

      // …the consultant, assigned the two demo companies, does not.
      await onPage(browser(), 'portfolio-consultant', async (page) => {
        await login(page, USERS.consultant, undefined, 'fi');
        await page.waitForURL(/#\/admin\/portfolio$/);
        await page.getByRole('heading', { name: 'Asiakassalkku' }).waitFor();
        const rows = rowsOf(page);
        await rows.filter({ hasText: 'Pohjola Rakennus Oy' }).waitFor();
        await rows.filter({ hasText: 'Saimaan Logistiikka Oy' }).waitFor();
        expect(await rows.count()).toBe(2);
        expect(await page.getByText(unassigned).count()).toBe(0);
        await screenshot(page, 'portfolio-consultant-fi');

        await switchLanguage(page, 'en');
        await page.getByRole('heading', { name: 'Portfolio' }).waitFor();
        await page.getByText('Potential saving / month').first().waitFor();
        expect(await rows.count()).toBe(2);
        await screenshot(page, 'portfolio-consultant-en');
      });
    },
  );
});
