import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, goto, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/**
 * antd named every icon in English for screen readers (`img "close"`, `img "search"`, `img "down"`),
 * on Finnish pages too (issue 37 item 19). An icon is now a drawing beside its labelled control:
 * the accessibility tree holds no icon name, and no English word of antd's in Finnish.
 */
const ICON_NAME = /- img "[a-z][a-z-]*"/;
const ENGLISH = /"(Close|Search|Previous Page|Next Page|Clear|Select all|Expand row|Collapse row)"/;

/** The page's accessibility tree; and no icon in the page named by antd (its English name). */
async function tree(page: Page): Promise<string> {
  const names = await page
    .locator('.anticon[aria-label]')
    .evaluateAll((icons) => icons.map((i) => i.getAttribute('aria-label') ?? ''));
  expect(names.filter((n) => /^[a-z][a-z-]*$/.test(n))).toEqual([]);
  return page.locator('body').ariaSnapshot();
}

describe('icons in the accessibility tree (issue 37 item 19)', () => {
  for (const lang of ['fi', 'en'] as const)
    for (const width of [1400, 390])
      pageTest(
        browser,
        `name no antd icon in English on the alerts page, its dialog and a report (${lang}, ${width} px)`,
        {
          shot: `icon-names-${lang}-${width}`,
          as: USERS.companyAdmin,
          lang,
          path: '/company/alerts',
          ready: 'alerts-table',
          timeout: 240_000,
        },
        async (page) => {
          await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
          await page.getByTestId('alerts-table').locator('tbody tr.ant-table-row').first().waitFor();
          const alerts = await tree(page);
          expect(alerts).not.toMatch(ICON_NAME);
          if (lang === 'fi') expect(alerts).not.toMatch(ENGLISH);
          // The bell keeps its own name (an icon the app names).
          expect(alerts).toMatch(
            lang === 'fi' ? /button "Hälytykset: \d+ avoin/ : /button "Alerts: \d+ open"/,
          );

          await page.getByTestId('alerts-ack-matching').click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor();
          const inDialog = await dialog.ariaSnapshot();
          expect(inDialog).not.toMatch(ICON_NAME);
          if (lang === 'fi') expect(inDialog).not.toMatch(ENGLISH);
          await screenshot(page, `icon-names-dialog-${lang}-${width}`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });

          await goto(page, '/company/report/Unused-Month-Count');
          await page.getByTestId('unused-until').waitFor();
          await page.getByTestId('unused-table').locator('tbody tr.ant-table-row').first().waitFor();
          const report = await tree(page);
          expect(report).not.toMatch(ICON_NAME);
          if (lang === 'fi') expect(report).not.toMatch(ENGLISH);
        },
      );
});
