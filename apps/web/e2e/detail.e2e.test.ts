import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { pageTest, reloadUntil, screenshot, switchLanguage, useBrowser } from './browser';
import { companyUpload } from './steps';

const browser = useBrowser();

/** The demo invoices are parsed in the background after start: reload until one can be opened. */
async function waitForInvoiceLink(page: Page) {
  const link = page.getByTestId('invoice-link').first();
  await reloadUntil(
    page,
    async () => {
      await page.getByTestId('invoice-table').waitFor();
      return (await link.count()) > 0;
    },
    'a parsed invoice in the table',
  );
  return link;
}

describe('invoice and subscription detail (company admin)', () => {
  pageTest(
    browser,
    'opens an invoice from the invoice table, its subscriptions and lines, then a subscription and its months; Finnish after reload',
    companyUpload('invoice-detail', 480_000),
    async (page) => {
      const link = await waitForInvoiceLink(page);
      const number = (await link.innerText()).trim();
      await link.click();
      await page.waitForURL(/#\/company\/invoices\/\d+$/);
      await page.getByRole('heading', { name: `Invoice ${number}` }).waitFor();
      await page.getByTestId('invoice-header').getByText('Total excl. VAT').waitFor();
      expect(await page.getByTestId('invoice-total-excl').innerText()).toMatch(/^€[\d,]+\.\d{2}$/);

      // The subscriptions on it, paged by the API; a row opens to its lines.
      const subs = page.getByTestId('invoice-subscriptions');
      await subs.locator('tbody tr.ant-table-row').first().waitFor();
      expect(await subs.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(1);
      await subs.locator('.ant-table-row-expand-icon').first().click();
      const lines = page.getByTestId('subscription-lines').first();
      await lines.getByRole('columnheader', { name: 'Unit price' }).waitFor();
      expect(await lines.locator('tbody tr.ant-table-row').count()).toBeGreaterThan(0);
      await screenshot(page, 'invoice-detail-en');

      // A search narrows the subscriptions down.
      const phone = (await subs.getByTestId('subscription-link').first().innerText()).trim();
      const searched = page.waitForResponse(
        (r) => r.url().includes('/subscriptions?') && r.url().includes('q='),
      );
      await page.getByTestId('invoice-subscription-search').locator('input').fill(phone.slice(-7));
      expect((await searched).ok()).toBe(true);
      await subs.getByTestId('subscription-link').getByText(phone).waitFor();

      await subs.getByTestId('subscription-link').first().click();
      await page.waitForURL(/#\/company\/subscriptions\/\d+$/);
      await page.getByRole('heading', { name: `Subscription ${phone}` }).waitFor();
      await page.getByTestId('subscription-months-chart').locator('canvas').waitFor();
      await page.getByTestId('subscription-months-view').locator('.ant-segmented-item').nth(1).click();
      const months = page.getByTestId('subscription-months-table');
      await months.getByRole('columnheader', { name: 'Voice minutes' }).waitFor();
      expect(await months.locator('tbody tr.ant-table-row').count()).toBeGreaterThanOrEqual(1);
      await page.getByTestId('subscription-finding').waitFor();
      await page.getByTestId('subscription-invoices').getByTestId('invoice-link').first().waitFor();
      await screenshot(page, 'subscription-detail-en');

      await switchLanguage(page, 'fi');
      await page.reload();
      await page.getByRole('heading', { name: `Liittymä ${phone}` }).waitFor();
      await page.getByText('Kustannukset ja käyttö kuukausittain').waitFor();
      await screenshot(page, 'subscription-detail-fi');
      await page.getByTestId('subscription-invoices').getByTestId('invoice-link').first().click();
      await page.getByRole('heading', { name: /^Lasku / }).waitFor();
      await page.getByTestId('invoice-subscriptions').locator('tbody tr.ant-table-row').first().waitFor();
      expect(await page.getByTestId('invoice-total-excl').innerText()).toMatch(/^[\d\s\u00a0]+,\d{2}\s€$/);
      await screenshot(page, 'invoice-detail-fi');
      await switchLanguage(page, 'en');
    },
  );
});
