import { describe, expect } from 'vitest';
import { USERS, pageTest, screenshot, useBrowser } from './browser';

/**
 * Issue 37 item 21: the Cost and Usage dashboard filters by cost element on screen (spec: its
 * filters are usage type, period, sub-company, cost category, cost element).
 */
const browser = useBrowser();

describe('the Cost and Usage dashboard', () => {
  for (const [lang, width] of [
    ['en', 1400],
    ['fi', 390],
  ] as const)
    pageTest(
      browser,
      `filters the figures by a cost element chosen from those with cost (${lang}, ${width} px)`,
      {
        shot: `cost-element-filter-${lang}-${width}`,
        as: USERS.companyAdmin,
        lang,
        path: '/company/dashboard/costAndUsage',
        ready: 'dashboard-cost-element',
        timeout: 300_000,
      },
      async (page) => {
        await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
        const select = page.getByTestId('dashboard-cost-element');
        await select.click();
        const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').first();
        await option.waitFor({ timeout: 60_000 });
        const name = (await option.textContent()) ?? '';
        expect(name.length).toBeGreaterThan(0);
        const answered = page.waitForResponse(
          (r) => r.url().includes('/api/dashboard/cost-usage?') && r.url().includes('costElementId='),
        );
        await option.click();
        const res = await answered;
        expect(res.ok()).toBe(true);
        const body = (await res.json()) as { totalCost: string };
        expect(Number(body.totalCost)).toBeGreaterThan(0);
        await expect.poll(() => select.locator('.ant-select-content').textContent()).toBe(name);
        await screenshot(page, `cost-element-filter-${lang}-${width}`);
      },
    );
});
