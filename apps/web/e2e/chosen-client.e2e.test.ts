import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, goto, pageTest, pickOption, screenshot, useBrowser } from './browser';

/**
 * Issue 37 item 13: the client a provider user chose on one page is the client of every other page
 * (reports, optimization, upload, downloads, alerts), not "Choose a client" again.
 */
const browser = useBrowser();

const CLIENT = 'Pohjola Rakennus Oy';

/** What the select with the test id shows: the chosen client's name, or its placeholder. */
const chosenIn = (page: Page, testId: string) =>
  page.getByTestId(testId).locator('.ant-select-content').first();

const PAGES = [
  { path: '/admin/invoice-optimization', select: 'optimization-client' },
  { path: '/admin/invoice-upload', select: 'upload-client' },
  { path: '/admin/reports/downloads', select: 'export-client' },
  { path: '/admin/alerts', select: 'alerts-client' },
  { path: '/admin/reports/base-plan-types', select: 'plan-types-client' },
  { path: '/admin/dashboard/costAndUsage', select: 'dashboard-client' },
] as const;

describe('the provider user’s chosen client', () => {
  for (const [lang, width] of [
    ['en', 1400],
    ['fi', 390],
  ] as const)
    pageTest(
      browser,
      `is kept from the report where it was chosen to optimization, upload, downloads, alerts and the dashboards (${lang}, ${width} px)`,
      {
        shot: `chosen-client-${lang}-${width}`,
        as: USERS.consultant,
        lang,
        path: '/admin/reports/top-users',
        ready: 'top-users-client',
        timeout: 420_000,
      },
      async (page) => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        await page.getByTestId('top-users-client').click();
        await pickOption(page, CLIENT);
        await expect.poll(() => chosenIn(page, 'top-users-client').textContent()).toBe(CLIENT);
        for (const { path, select } of PAGES) {
          await goto(page, path);
          await page.getByTestId(select).waitFor();
          await expect.poll(() => chosenIn(page, select).textContent(), { timeout: 30_000 }).toBe(CLIENT);
        }
        await screenshot(page, `chosen-client-dashboard-${lang}-${width}`);
        // Clearing it on one page clears it on the others.
        await page.getByTestId('dashboard-client').hover();
        await page.getByTestId('dashboard-client').locator('.ant-select-clear').click();
        await goto(page, '/admin/reports/top-users');
        await page.getByTestId('top-users-client').waitFor();
        await page.getByTestId('top-users-client').locator('.ant-select-placeholder').waitFor();
        expect(await chosenIn(page, 'top-users-client').textContent()).not.toContain(CLIENT);
      },
    );
});
