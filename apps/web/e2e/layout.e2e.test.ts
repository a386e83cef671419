import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { USERS, goto, login, openPage, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** Right after start the API imports the demo invoices: on a loaded machine a page takes a while. */
const SLOW = { timeout: 300_000 };

/** Opens a page, signed in as `email` in `lang`, with the given window width. */
async function signedIn(email: string, lang: 'en' | 'fi', width: number) {
  const opened = await openPage(browser());
  opened.context.setDefaultNavigationTimeout(180_000);
  opened.context.setDefaultTimeout(120_000);
  await opened.page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await login(opened.page, email, undefined, lang);
  return opened;
}

/** The element's box lies wholly inside the window (nothing to scroll to reach it). */
async function inWindow(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const size = page.viewportSize();
  return (
    !!box &&
    !!size &&
    box.x >= 0 &&
    box.y >= 0 &&
    box.x + box.width <= size.width &&
    box.y + box.height <= size.height
  );
}

const LOG_OUT = { en: 'Log out', fi: 'Kirjaudu ulos' } as const;

describe('a phone (390 px)', () => {
  it.each(['en', 'fi'] as const)(
    'keeps the header and Log out inside the screen (%s)',
    SLOW,
    async (lang) => {
      const { context, page, errors } = await signedIn(USERS.companyAdmin, lang, 390);
      const header = page.getByTestId('app-header');
      // The header is no wider than the screen, and the page does not scroll sideways.
      expect(await header.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await inWindow(page, page.getByTestId('user-menu'))).toBe(true);
      await screenshot(page, `phone-header-${lang}`);
      await page.getByTestId('user-menu').click();
      const logOut = page.getByRole('menuitem', { name: LOG_OUT[lang] });
      await logOut.waitFor();
      expect(await inWindow(page, logOut)).toBe(true);
      await screenshot(page, `phone-user-menu-${lang}`);
      await logOut.click();
      await page.waitForURL(/#\/login$/);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the side menu (1400 px)', () => {
  it.each(['en', 'fi'] as const)('shows every entry whole, none cut with "…" (%s)', SLOW, async (lang) => {
    const { context, page, errors } = await signedIn(USERS.admin, lang, 1400);
    const menu = page.getByTestId('side-menu');
    // Open every group, a nested one once its parent is open.
    const closed = menu.locator(
      '.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title:visible',
    );
    for (let i = 0; i < 30 && (await closed.count()) > 0; i++) await closed.first().click();
    await expect.poll(() => menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open)').count()).toBe(0);
    const cut = await menu
      .locator('.ant-menu-title-content')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut).toEqual([]);
    await screenshot(page, `side-menu-open-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("a client's page (1400 px)", () => {
  it.each(['en', 'fi'] as const)('shows all ten sections, none behind "…" (%s)', SLOW, async (lang) => {
    const { context, page, errors } = await signedIn(USERS.admin, lang, 1400);
    await goto(page, '/client-management/client-management');
    await page.getByRole('link', { name: 'Pohjola Rakennus Oy' }).click();
    const sections = page.getByTestId('client-sections');
    await sections.waitFor();
    const tabs = sections.getByRole('tab');
    expect(await tabs.count()).toBe(10);
    const bar = await sections.locator('.ant-tabs-nav-wrap').first().boundingBox();
    for (const tab of await tabs.all()) {
      const box = await tab.boundingBox();
      expect(box && bar && box.y >= bar.y && box.y + box.height <= bar.y + bar.height + 1).toBe(true);
      expect(box && bar && box.x >= bar.x && box.x + box.width <= bar.x + bar.width + 1).toBe(true);
    }
    expect(
      await sections.locator('.ant-tabs-nav-operations:not(.ant-tabs-nav-operations-hidden)').count(),
    ).toBe(0);
    await screenshot(page, `client-sections-${lang}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
