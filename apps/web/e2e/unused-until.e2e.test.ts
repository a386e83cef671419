import { describe, expect } from 'vitest';
import type { UnusedSubscriptionsList } from '@kulu/shared';
import { USERS, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** A month `YYYY-MM` moved back by one. */
const monthBefore = (month: string): string => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

describe('Unused Subscriptions ending at a chosen month (issue 37 item 19)', () => {
  for (const lang of ['en', 'fi'] as const)
    for (const width of [1400, 390])
      pageTest(
        browser,
        `asks for the window ending at the month picked and says so (${lang}, ${width} px)`,
        {
          shot: `unused-until-${lang}-${width}`,
          as: USERS.companyAdmin,
          lang,
          path: '/company/report/Unused-Month-Count',
          ready: 'unused-until',
          timeout: 240_000,
        },
        async (page) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          const window = page.getByTestId('unused-window');
          await window.waitFor();
          const first = (await window.innerText()).trim();
          const latest = await page.evaluate(async () => {
            const res = await fetch('/api/reports/unused-subscriptions?pageSize=1', {
              headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
            });
            return ((await res.json()) as UnusedSubscriptionsList).to!;
          });
          const chosen = monthBefore(latest);
          // antd puts the test id on the picker's input.
          const input = page.getByTestId('unused-until').locator('xpath=self::input | .//input').first();
          await input.click();
          const answer = page.waitForResponse(
            (r) => r.url().includes('/api/reports/unused-subscriptions?') && r.url().includes(`to=${chosen}`),
          );
          await input.fill(chosen);
          await input.press('Enter');
          const body = (await (await answer).json()) as UnusedSubscriptionsList;
          expect(body.to).toBe(chosen);
          await expect.poll(async () => (await window.innerText()).trim()).not.toBe(first);
          await screenshot(page, `unused-until-${lang}-${width}`);
        },
      );
});
