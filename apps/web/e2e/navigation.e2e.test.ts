import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PASSWORD, USERS, baseUrl, goto, menuTexts, openPage, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/** Fills the login form the page is on and signs in (the page the app goes on to is up to the test). */
async function signIn(page: Page, email: string): Promise<void> {
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('side-menu').waitFor();
}

const REPORT = '/company/report/Unused-Month-Count';
/** Right after start the API imports the demo invoices: a sign-in on a loaded machine takes a while. */
const SLOW = { timeout: 300_000 };

async function open() {
  const opened = await openPage(browser());
  opened.context.setDefaultNavigationTimeout(180_000);
  opened.context.setDefaultTimeout(120_000);
  return opened;
}

describe('links and bookmarks opened while signed out', () => {
  it('lands on the page the link asked for after signing in, not on Cost and Usage', SLOW, async () => {
    const { context, page, errors } = await open();
    await goto(page, `${REPORT}?q=040`);
    await page.waitForURL(/#\/login$/);
    await signIn(page, USERS.companyAdmin);
    await page.waitForURL((u) => u.hash === `#${REPORT}?q=040`);
    await expect.poll(() => page.title()).toMatch(/^(Unused Subscriptions|Käyttämättömät liittymät) · /);
    expect(errors).toEqual([]);
    await context.close();
  });

  it(
    'answers a page path typed without the # with the app, which routes it after sign-in',
    SLOW,
    async () => {
      const { context, page, errors } = await open();
      const res = await page.goto(`${baseUrl()}${REPORT}`);
      expect(res?.ok()).toBe(true);
      expect(await res?.headerValue('content-type')).toContain('text/html');
      await page.waitForURL(/#\/login$/);
      await signIn(page, USERS.companyAdmin);
      await page.waitForURL((u) => u.pathname === '/' && u.hash === `#${REPORT}`);
      // Signed in, the same path without the # opens the page directly.
      await page.goto(`${baseUrl()}/company/dashboard/costAndUsage`);
      await page.waitForURL((u) => u.hash === '#/company/dashboard/costAndUsage');
      await page.getByTestId('side-menu').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});

describe('the language picked on the login page', () => {
  it('keeps Finnish picked before signing in, and saves it on the user', SLOW, async () => {
    const { context, page, errors } = await open();
    // The user's saved language is English to start with.
    await goto(page, '/login');
    await signIn(page, USERS.companyAdmin);
    if ((await page.evaluate(() => document.documentElement.lang)) !== 'en') {
      const saved = page.waitForResponse((r) => r.url().includes('/api/profile/settings'));
      await page.locator('[data-testid=language-switch] [data-lang=en]').click();
      await saved;
    }
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL(/#\/login$/);

    await page.locator('[data-testid=language-switch] [data-lang=fi]').click();
    await page.getByRole('heading', { name: 'Kirjaudu sisään' }).waitFor();
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/profile/settings') && r.request().method() === 'PUT',
    );
    await signIn(page, USERS.companyAdmin);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fi');
    expect(await menuTexts(page)).toContain('Kustannukset ja käyttö');
    expect((await saved).ok()).toBe(true);
    await screenshot(page, 'login-language-kept-fi');

    // Saved on the user: a fresh browser signing in without picking gets Finnish too.
    const other = await open();
    await goto(other.page, '/login');
    await signIn(other.page, USERS.companyAdmin);
    expect(await other.page.evaluate(() => document.documentElement.lang)).toBe('fi');
    await other.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });
});
