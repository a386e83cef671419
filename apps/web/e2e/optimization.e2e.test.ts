import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, euros, goto, pageTest, reloadUntil, screenshot, switchLanguage, useBrowser } from './browser';

const browser = useBrowser();

const rows = (page: Page) => page.getByTestId('optimization-table').locator('tbody tr.ant-table-row');

/** The count on a tab's label. */
async function tabCount(page: Page, tab: string): Promise<number> {
  const text = await page.getByTestId(`optimization-count-${tab}`).innerText();
  return Number(text.replace(/\D/g, ''));
}

/**
 * The demo invoices are parsed, and the client optimized, in the background after start: reload
 * until the optimized tab has findings.
 */
async function waitForFindings(page: Page): Promise<void> {
  await reloadUntil(
    page,
    async () => {
      await page.getByTestId('optimization-count-optimized').waitFor({ timeout: 60_000 });
      return (await tabCount(page, 'optimized')) > 0;
    },
    'optimization findings',
  );
  await rows(page).first().waitFor();
}

/** The rows matching the filters, from the totals row (the tab counts do not follow the limit). */
async function matching(page: Page): Promise<number> {
  const text = await page.getByTestId('optimization-totals').innerText();
  const m = /Total of (\d+) subscriptions?/.exec(text);
  if (!m) throw new Error(`no total in ${text}`);
  return Number(m[1]);
}

/** The monthly saving column of the rows on screen. */
async function shownSavings(page: Page): Promise<number[]> {
  const index = await page
    .getByTestId('optimization-table')
    .locator('thead th')
    .evaluateAll((ths) => ths.findIndex((th) => th.textContent?.trim() === 'Saving / month'));
  expect(index).toBeGreaterThan(-1);
  const texts = await rows(page).evaluateAll(
    (trs, i) => trs.map((tr) => tr.querySelectorAll('td')[i]?.textContent ?? ''),
    index,
  );
  return texts.map(euros);
}

/**
 * The first row's reason (what the page is read for) is on screen at 1400 px as the page opens:
 * inside the window and the table's visible part, with the table not scrolled sideways.
 */
async function reasonInView(page: Page): Promise<void> {
  const reason = rows(page).first().getByTestId('optimization-reason');
  expect((await reason.innerText()).trim()).not.toBe('');
  const box = await reason.boundingBox();
  const table = await page.getByTestId('optimization-table').locator('.ant-table-container').boundingBox();
  expect(page.viewportSize()?.width).toBe(1400);
  expect(box && table).toBeTruthy();
  expect(box!.x).toBeGreaterThanOrEqual(table!.x);
  expect(box!.x + box!.width).toBeLessThanOrEqual(Math.min(table!.x + table!.width, 1400));
  expect(
    await page
      .getByTestId('optimization-table')
      .locator('.ant-table-content, .ant-table-body')
      .first()
      .evaluate((el) => el.scrollLeft),
  ).toBe(0);
}

async function applyLimit(page: Page, value: string) {
  const answered = page.waitForResponse(
    (r) =>
      r.url().includes('/api/optimization/subscriptions?') &&
      (value ? r.url().includes('savingLimit=') : !r.url().includes('savingLimit=')),
  );
  // antd puts the test id on the input itself when the number box has a suffix.
  await page
    .locator('input[data-testid=optimization-saving-limit], [data-testid=optimization-saving-limit] input')
    .fill(value);
  await page.getByTestId('optimization-apply').click();
  expect((await answered).ok()).toBe(true);
}

describe('optimization and savings (company admin)', () => {
  pageTest(
    browser,
    'sees findings, applies a saving limit, marks two subscriptions and sees them on the savings dashboard, in English and Finnish',
    {
      shot: 'optimization-company-admin',
      as: USERS.companyAdmin,
      path: '/company/invoice-optimization',
      timeout: 480_000,
    },
    async (page) => {
      await page.getByRole('heading', { name: 'Optimization' }).waitFor();
      await waitForFindings(page);
      await page
        .getByTestId('optimization-run')
        .getByText(/Last optimized/)
        .waitFor();
      await page.getByTestId('optimization-totals').waitFor();
      await reasonInView(page);
      await screenshot(page, 'optimization-en');

      // The saving limit: rows saving less than the largest saving on the first page go away.
      const before = await matching(page);
      const savings = await shownSavings(page);
      const limit = Math.max(...savings);
      await applyLimit(page, limit.toFixed(2));
      // The answer is in; the screen follows on the next render.
      if (Math.min(...savings) < limit) await expect.poll(() => matching(page)).toBeLessThan(before);
      await rows(page).first().waitFor();
      expect(await matching(page)).toBeGreaterThan(0);
      for (const s of await shownSavings(page)) expect(s).toBeGreaterThanOrEqual(limit);
      await applyLimit(page, '');
      await expect.poll(() => matching(page)).toBe(before);

      // Mark the first two unmarked recommendations.
      const markable = rows(page).filter({
        has: page.locator('.ant-checkbox:not(.ant-checkbox-disabled)'),
      });
      expect(await markable.count()).toBeGreaterThanOrEqual(2);
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const row = markable.nth(i);
        ids.push(await row.getAttribute('data-row-key').then(String));
        await row.locator('.ant-checkbox-wrapper').click();
      }
      const mark = page.getByTestId('optimization-mark');
      await expect.poll(() => mark.innerText()).toMatch(/Mark 2 for optimization/);
      await mark.click();
      const marked = page.waitForResponse(
        (r) => r.url().includes('/api/optimization/mark') && r.request().method() === 'POST',
      );
      await page.locator('.ant-popconfirm').getByRole('button', { name: 'Mark for optimization' }).click();
      expect((await marked).ok()).toBe(true);
      await page.getByText('2 subscriptions marked for optimization').waitFor();
      for (const id of ids) await page.locator(`tr[data-row-key="${id}"]`).getByTestId('mark-open').waitFor();

      // The savings dashboard shows the marked part.
      await goto(page, '/company/dashboard/savings');
      await page.getByRole('heading', { name: 'Savings' }).waitFor();
      const markedText = page.getByTestId('savings-marked');
      await markedText.waitFor();
      const m = /^(€[\d,]+\.\d{2}) marked \((\d+) subscriptions?\)$/.exec(
        (await markedText.innerText()).trim(),
      );
      expect(m).not.toBeNull();
      expect(euros(m![1])).toBeGreaterThan(0);
      expect(Number(m![2])).toBeGreaterThanOrEqual(2);
      expect(
        euros(await page.getByTestId('savings-potential').locator('.ant-statistic-content').innerText()),
      ).toBeGreaterThan(0);
      await page.getByTestId('savings-sub-companies-chart').locator('canvas').waitFor();
      await screenshot(page, 'savings-en');

      // Finnish after a reload.
      await switchLanguage(page, 'fi');
      await page.reload();
      await page.getByRole('heading', { name: 'Säästöt' }).waitFor();
      await page
        .getByTestId('savings-marked')
        .getByText(/\d,\d{2}\s€ merkitty/)
        .waitFor();
      await screenshot(page, 'savings-fi');
      await goto(page, '/company/invoice-optimization');
      await page.getByRole('heading', { name: 'Optimointi' }).waitFor();
      await page.getByTestId('optimization-tab-optimized').getByText('Optimoitu').waitFor();
      await page.getByRole('button', { name: /Optimoi uudelleen/ }).waitFor();
      await rows(page).first().waitFor();
      await page.locator(`tr[data-row-key="${ids[0]}"]`).getByText('Merkitty').waitFor();
      await reasonInView(page);
      await screenshot(page, 'optimization-fi');
      await switchLanguage(page, 'en');
    },
  );

  pageTest(
    browser,
    'an admin picks the client first, then sees its findings',
    {
      shot: 'optimization-admin-client-first',
      as: USERS.admin,
      path: '/admin/invoice-optimization',
      timeout: 420_000,
    },
    async (page) => {
      await page.getByTestId('optimization-client-first').waitFor();
      await screenshot(page, 'optimization-client-first-en');
      await page.getByTestId('optimization-client').click();
      const answered = page.waitForResponse(
        (r) => r.url().includes('/api/optimization/subscriptions?') && r.url().includes('clientId='),
      );
      await page.locator('.ant-select-dropdown .ant-select-item-option').first().click();
      expect((await answered).ok()).toBe(true);
      await page.getByTestId('optimization-count-optimized').waitFor();
      await page.getByTestId('optimization-reoptimize').waitFor();
    },
  );

  pageTest(
    browser,
    'a View user sees the findings but no mark or re-optimize buttons',
    {
      shot: 'optimization-view-user',
      as: USERS.clientUser,
      path: '/company/invoice-optimization',
      timeout: 420_000,
    },
    async (page) => {
      await page.getByRole('heading', { name: 'Optimization' }).waitFor();
      await page.getByTestId('optimization-count-optimized').waitFor({ timeout: 60_000 });
      await page.getByTestId('optimization-export').waitFor();
      expect(await page.getByTestId('optimization-mark').count()).toBe(0);
      expect(await page.getByTestId('optimization-reoptimize').count()).toBe(0);
      expect(await page.getByTestId('optimization-settings').count()).toBe(0);
      expect(await page.getByTestId('optimization-table').locator('tbody input[type=checkbox]').count()).toBe(
        0,
      );
    },
  );
});
