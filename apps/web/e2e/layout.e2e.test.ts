import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import en from '../src/locales/en.json';
import fi from '../src/locales/fi.json';
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

/** The element's left and right edges lie inside the window's width (nothing past the screen's side). */
async function withinWidth(page: Page, el: Locator): Promise<boolean> {
  const box = await el.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return !!box && box.x >= 0 && box.x + box.width <= width + 1;
}

describe('issue 37: a phone (390 px)', () => {
  it.each(['en', 'fi'] as const)(
    'shows every alert whole (month, state, type, text, action), the upload box inside the screen and the company name in full (%s)',
    SLOW,
    async (lang) => {
      const { context, page, errors } = await signedIn(USERS.companyAdmin, lang, 390);
      // The company's name, in full, on screen.
      const company = page.getByTestId('header-company');
      await expect.poll(() => company.textContent()).toBe('Pohjola Rakennus Oy');
      expect(await company.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      expect(await withinWidth(page, company)).toBe(true);

      await goto(page, '/company/alerts');
      const first = page.locator('[data-testid^="alert-phone-"]').first();
      await first.waitFor();
      expect(await withinWidth(page, first)).toBe(true);
      // Month, state and the alert's text in the one cell, and its action.
      // The month in words (Dec 2026 / joulu 2026), not ISO.
      expect(await first.textContent()).toMatch(/\p{L}+\.? \d{4}/u);
      expect(await first.textContent()).not.toMatch(/\d{4}-\d{2}/);
      expect(await first.locator('.ant-tag').count()).toBeGreaterThanOrEqual(2);
      expect(await withinWidth(page, first.getByRole('button'))).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `phone-alerts-${lang}`);

      await goto(page, '/company/invoice-upload');
      const dragger = page.locator('.ant-upload-drag');
      await dragger.waitFor();
      for (const el of [dragger, page.getByTestId('upload-sub-company'), page.getByTestId('upload-all')])
        expect(await withinWidth(page, el)).toBe(true);
      const card = page.locator('.ant-card').first();
      const [cardBox, selectBox] = await Promise.all([
        card.boundingBox(),
        page.getByTestId('upload-sub-company').boundingBox(),
      ]);
      expect(selectBox!.x + selectBox!.width).toBeLessThanOrEqual(cardBox!.x + cardBox!.width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `phone-upload-${lang}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

/** WCAG contrast of two CSS colours (rgb/rgba, the second opaque). */
function contrast(fg: string, bg: string): number {
  const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const [br, bgc, bb] = parse(bg);
  const [fr, fgc, fb, fa = 1] = parse(fg);
  // A translucent text colour shows through to the background.
  const mix = (f: number, b: number) => f * fa + b * (1 - fa);
  const lum = (r: number, g: number, b: number) => {
    const ch = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
  };
  const a = lum(mix(fr!, br!), mix(fgc!, bgc!), mix(fb!, bb!));
  const b = lum(br!, bgc!, bb!);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The first opaque background colour at or above the element. */
const backgroundOf = (el: Locator) =>
  el.evaluate((node) => {
    for (let e: Element | null = node; e; e = e.parentElement) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && c !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(c)) return c;
    }
    return 'rgb(255, 255, 255)';
  });

/** Picks the user's theme on the profile page (saved on the user) and waits for it to apply. */
async function useTheme(page: Page, lang: 'en' | 'fi', id: number): Promise<void> {
  await goto(page, '/profile');
  await page
    .getByRole('tab', { name: lang === 'fi' ? fi.profile.tabs.settings : en.profile.tabs.settings })
    .click();
  await page.getByTestId(`theme-${id}`).click();
  await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe(String(id));
}

describe('issue 37: the admin at 1400 px', () => {
  it.each(['en', 'fi'] as const)(
    'sees the optimization Status column inside the table, and the last menu entry above the collapse bar with Reports open (%s)',
    SLOW,
    async (lang) => {
      const { context, page, errors } = await signedIn(USERS.admin, lang, 1400);
      await goto(page, '/admin/invoice-optimization');
      await page.getByTestId('optimization-client').click();
      await page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: 'Pohjola Rakennus Oy' })
        .first()
        .click();
      const table = page.getByTestId('optimization-table');
      await table.locator('tr.ant-table-row').first().waitFor({ timeout: 60_000 });
      const container = await table.locator('.ant-table-container').boundingBox();
      const status = table
        .locator('th')
        .filter({ hasText: lang === 'fi' ? fi.optimization.status : en.optimization.status });
      const box = await status.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(container!.x + container!.width + 1);
      for (const unmark of await table.getByTestId('optimization-unmark').all()) {
        const b = await unmark.boundingBox();
        expect(b!.x + b!.width).toBeLessThanOrEqual(container!.x + container!.width + 1);
      }
      await screenshot(page, `optimization-status-${lang}`);

      await goto(page, '/admin/reports/top-users');
      const sider = page.locator('.app-sider');
      await page.getByTestId('top-users-client').waitFor();
      await sider.evaluate((s) => (s.scrollTop = s.scrollHeight));
      const last = page.getByTestId('side-menu').locator(':scope > li').last();
      const [lastBox, trigger] = await Promise.all([
        last.boundingBox(),
        page.locator('.ant-layout-sider-trigger').boundingBox(),
      ]);
      expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(trigger!.y + 1);
      await screenshot(page, `side-menu-reports-open-${lang}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it.each(['en', 'fi'] as const)(
    'reads the open menu group’s title in a dark theme (contrast at least 4.5) (%s)',
    SLOW,
    async (lang) => {
      const { context, page, errors } = await signedIn(USERS.consultant, lang, 1400);
      try {
        await useTheme(page, lang, 3);
        await goto(page, '/admin/reports/top-users');
        const title = page.locator('.app-menu .ant-menu-submenu-selected > .ant-menu-submenu-title').first();
        await title.waitFor();
        const color = await title.evaluate((e) => getComputedStyle(e).color);
        expect(contrast(color, await backgroundOf(title))).toBeGreaterThanOrEqual(4.5);
        await screenshot(page, `side-menu-dark-open-group-${lang}`);
      } finally {
        // The theme is saved on the user: the other tests expect the default.
        await useTheme(page, lang, 1);
      }
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
