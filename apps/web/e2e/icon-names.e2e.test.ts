import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, goto, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/**
 * antd's own screen-reader labels are English on Finnish pages too (issue 37 item 19): the tables'
 * selection boxes ("Select all", "Select row 1"), a select's clear button ("Clear"), the search
 * button (its icon's name, "search"). The app names them in the interface language.
 */
const ENGLISH =
  /"(Close|Search|search|Previous Page|Next Page|Clear|Select all|Select row \d+|Expand row|Collapse row)"/;

/** antd's English icon names (`img "down"`): on a Finnish page an icon is a drawing or named in Finnish. */
const ENGLISH_ICON =
  /img "(down|up|left|right|double-left|double-right|close|close-circle|search|check|calendar|swap-right|ellipsis|bell|setting|question-circle|menu-fold|menu-unfold|caret-up|caret-down|filter|download)"/;

const tree = (page: Page): Promise<string> => page.locator('body').ariaSnapshot();

describe('icons in the accessibility tree (issue 37 item 19)', () => {
  for (const lang of ['fi', 'en'] as const)
    for (const width of [1400, 390])
      pageTest(
        browser,
        `names the selection boxes, a select's clear button and the search button in the interface language on the alerts page, its dialog and a report (${lang}, ${width} px)`,
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
          if (lang === 'fi') {
            expect(alerts).not.toMatch(ENGLISH);
            expect(alerts).not.toMatch(ENGLISH_ICON);
            expect(alerts).toMatch(/checkbox "Valitse kaikki"/);
            expect(alerts).toMatch(/checkbox "Valitse rivi"/);
            expect(alerts).toMatch(/button "Tyhjennä"/);
          }
          // The bell keeps its own name (an icon the app names).
          expect(alerts).toMatch(
            lang === 'fi' ? /button "Hälytykset: \d+ avoin/ : /button "Alerts: \d+ open"/,
          );

          await page.getByTestId('alerts-ack-matching').click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor();
          const inDialog = await dialog.ariaSnapshot();
          if (lang === 'fi') {
            expect(inDialog).not.toMatch(ENGLISH);
            expect(inDialog).not.toMatch(ENGLISH_ICON);
          }
          await screenshot(page, `icon-names-dialog-${lang}-${width}`);
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });

          await goto(page, '/company/report/Unused-Month-Count');
          await page.getByTestId('unused-until').waitFor();
          await page.getByTestId('unused-table').locator('tbody tr.ant-table-row').first().waitFor();
          const report = await tree(page);
          if (lang === 'fi') {
            expect(report).not.toMatch(ENGLISH);
            expect(report).not.toMatch(ENGLISH_ICON);
            expect(report).toMatch(/button "Hae numerolla tai käyttäjällä"/);
          }
        },
      );

  pageTest(
    browser,
    "hides an icon once text is added beside it in its control, and names a lone icon in Finnish (the page's watcher)",
    {
      shot: 'icon-names-watcher',
      as: USERS.companyAdmin,
      lang: 'fi',
      path: '/company/alerts',
      ready: 'alerts-table',
    },
    async (page) => {
      const states = await page.evaluate(async () => {
        const button = document.createElement('button');
        button.innerHTML = '<span role="img" aria-label="search" class="anticon anticon-search"></span>';
        document.body.append(button);
        const icon = button.querySelector('span')!;
        const settle = () => new Promise((r) => setTimeout(r, 50));
        await settle();
        const alone = [icon.getAttribute('aria-label'), icon.getAttribute('aria-hidden')];
        button.append(document.createTextNode('Hae'));
        await settle();
        const beside = icon.getAttribute('aria-hidden');
        button.remove();
        return { alone, beside };
      });
      expect(states.alone).toEqual(['hae', null]);
      expect(states.beside).toBe('true');
    },
  );
});
