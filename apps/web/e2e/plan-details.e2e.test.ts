import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  pageTest,
  screenshot,
  screenshotWithoutToasts,
  switchLanguage,
  toast,
  useBrowser,
} from './browser';
import { clientSectionTest } from './steps';

const browser = useBrowser();

const rows = (page: Page) => page.getByTestId('plan-details').locator('tbody tr.ant-table-row');
/** The text of column `index` (0-based) of the first row. */
const cell = (page: Page, index: number) => rows(page).first().locator('td').nth(index).innerText();

describe('Plan Details', () => {
  pageTest(
    browser,
    'lists, searches and sorts the subscriptions, edits one’s plan and contract price, and reads in Finnish',
    {
      shot: 'plan-details',
      as: USERS.companyAdmin,
      path: '/company/client-masters/plan-details',
      timeout: 240_000,
    },
    companyWalk,
  );

  clientSectionTest(
    browser,
    'shows the section on the provider’s client page',
    { shot: 'plan-details-client-section', tab: 'Plan details', timeout: 120_000 },
    async (page) => {
      await rows(page).first().waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('plan-details').innerText()).toContain('Contract price');
      await screenshot(page, 'plan-details-client-section-en');
    },
  );
});

async function companyWalk(page: Page) {
  const table = page.getByTestId('plan-details');
  await rows(page).first().waitFor({ timeout: 30_000 });
  expect(await rows(page).count()).toBeGreaterThan(1);

  // Sorting by a sortable column asks the API for it.
  const sorted = page.waitForResponse(
    (r) => r.url().includes('/api/plan-details?') && r.url().includes('sort=userName'),
  );
  await table.locator('th').filter({ hasText: 'User' }).first().click();
  expect((await sorted).ok()).toBe(true);

  // Search one number: only its row is left.
  const phone = await cell(page, 0);
  await page.getByPlaceholder('Search number, user or plan').fill(phone);
  await expect.poll(() => rows(page).count()).toBe(1);
  await expect.poll(() => cell(page, 0)).toBe(phone);
  const currentPlan = await cell(page, 4);

  // Edit Plan Details: another plan of the operator and a contract price.
  await rows(page).first().getByTestId('plan-detail-edit').click();
  const modal = page.locator('.ant-modal').filter({ hasText: 'Edit Plan Details' });
  await modal.getByTestId('plan-detail-contract-price').waitFor();
  await modal.getByTestId('plan-detail-plan').click();
  const names = page.locator('.ant-select-dropdown:visible [data-testid=plan-option] > span:first-child');
  await names.first().waitFor();
  const all = await names.allInnerTexts();
  const next = all.find((n) => n !== currentPlan);
  expect(next).toBeDefined();
  await names
    .filter({ hasText: new RegExp(`^${next!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .first()
    .click();

  // The amount is checked in the browser: negative is refused with a clear message.
  const price = modal.getByTestId('plan-detail-contract-price');
  await price.fill('-5');
  await modal.getByRole('button', { name: 'Save' }).click();
  await modal.getByText('Enter a non-negative amount in euros with at most 2 decimals').waitFor();
  await price.fill('12.345');
  await modal.getByText('Enter a non-negative amount in euros with at most 2 decimals').waitFor();
  await price.fill('12.34');
  await expect.poll(() => modal.getByText('Enter a non-negative amount').count()).toBe(0);
  await screenshot(page, 'plan-details-edit-en');

  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/plan-details/') && r.request().method() === 'PUT',
  );
  await modal.getByRole('button', { name: 'Save' }).click();
  expect((await saved).ok()).toBe(true);
  await toast(page, 'Plan details updated');
  await page.getByText('Re-optimization of the company’s subscriptions was queued').waitFor();
  await expect.poll(() => cell(page, 4)).toBe(next);
  await expect.poll(() => cell(page, 6)).toBe('€12.34');
  await screenshotWithoutToasts(page, 'plan-details-en');

  // Finnish: the headings, the price in Finnish format, and the edit dialog.
  await switchLanguage(page, 'fi');
  await expect.poll(() => table.innerText()).toContain('Sopimushinta');
  expect(await table.innerText()).toContain('Liittymätyyppi');
  expect(await table.innerText()).toContain('Tytäryhtiö / kustannuspaikka');
  await expect.poll(() => cell(page, 6)).toMatch(/^12,34\s€$/);
  await page.getByPlaceholder('Hae numerolla, käyttäjällä tai liittymällä').fill('');
  await expect.poll(() => rows(page).count()).toBeGreaterThan(1);
  await screenshot(page, 'plan-details-fi');
  await page.getByPlaceholder('Hae numerolla, käyttäjällä tai liittymällä').fill(phone);
  await expect.poll(() => rows(page).count()).toBe(1);
  await rows(page).first().getByTestId('plan-detail-edit').click();
  const fiModal = page.locator('.ant-modal').filter({ hasText: 'Muokkaa liittymän tietoja' });
  await expect.poll(() => fiModal.getByTestId('plan-detail-contract-price').inputValue()).toBe('12,34');
  await fiModal.getByTestId('plan-detail-plan').click();
  await page.locator('.ant-select-dropdown:visible [data-testid=plan-option]').first().waitFor();
  await screenshot(page, 'plan-details-edit-fi');
  await page.keyboard.press('Escape');
  await fiModal.getByRole('button', { name: 'Peruuta' }).click();
  await switchLanguage(page, 'en');
}
