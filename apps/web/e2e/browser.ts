import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export const PASSWORD = 'Kulu!2026';
export const USERS = {
  admin: 'admin@kulu.fi',
  consultant: 'konsultti@kulu.fi',
  companyAdmin: 'anna.virtanen@pohjolarakennus.fi',
  clientUser: 'mikko.korhonen@pohjolarakennus.fi',
} as const;

export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

export const baseUrl = (): string => inject('baseUrl');

/** A valid Finnish business id (check digit) that no other test uses. */
export function businessId(): string {
  for (;;) {
    const base = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
    const sum = [7, 9, 10, 5, 8, 4, 2].reduce((a, w, i) => a + w * Number(base[i]), 0) % 11;
    if (sum !== 1) return `${base}-${sum === 0 ? 0 : 11 - sum}`;
  }
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/** A fresh context (empty storage) with a page that fails the test on page errors. */
export async function openPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    reducedMotion: 'reduce',
  });
  // Right after it answers /api/health the API may still be busy with its start (demo data) and,
  // on a loaded machine, the first page load can take longer than playwright's 30 s default.
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

export const goto = (page: Page, path: string) => page.goto(`${baseUrl()}/#${path}`);

/** Logs in through the login form and waits for the shell. */
/**
 * Logs in and shows the interface in `lang`. The language is saved on the user, so an earlier test
 * may have left this user in the other one: a test starts from the language it asks for.
 */
export async function login(
  page: Page,
  email: string,
  password = PASSWORD,
  lang: 'en' | 'fi' = 'en',
): Promise<void> {
  await goto(page, '/login');
  await page.locator('#email').fill(email);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  // The first sign-in after the server starts can wait behind the demo import on a loaded machine.
  await page.getByTestId('side-menu').waitFor({ timeout: 110_000 });
  if ((await page.evaluate(() => document.documentElement.lang)) !== lang) await switchLanguage(page, lang);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // Fonts loaded, the splash gone and every finite CSS animation or transition (antd's motion)
  // ended, instead of a fixed pause; endless ones (a spinner) do not hold the picture back. Past 5 s
  // the picture is taken as it stands: it is a record to look at, not an assertion.
  await page
    .waitForFunction(
      () =>
        document.fonts.status === 'loaded' &&
        !document.getElementById('splash') &&
        document
          .getAnimations()
          .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
      undefined,
      { timeout: 5_000, polling: 'raf' },
    )
    .catch(() => undefined);
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}

/** The visible texts of the side menu's entries. */
export const menuTexts = (page: Page) =>
  page.getByTestId('side-menu').locator('.ant-menu-title-content').allInnerTexts();

/** Switches the interface language from the header and waits until it is saved on the user. */
export async function switchLanguage(page: Page, lang: 'en' | 'fi'): Promise<void> {
  const saved = page.waitForResponse(
    (r) => r.url().includes('/api/profile/settings') && r.request().method() === 'PUT',
  );
  await page.locator(`[data-testid=language-switch] [data-lang=${lang}]`).click();
  const res = await saved;
  if (!res.ok()) throw new Error(`saving the language answered ${res.status()}`);
}

/** Waits for the toast that says `text` (a success message). */
export const toast = (page: Page, text: string) =>
  page.locator('.ant-message-notice').filter({ hasText: text }).first().waitFor();

/** Waits until every toast is gone (before a screenshot, or before the next one is awaited). */
export const toastsGone = (page: Page) =>
  expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 15_000 }).toBe(0);

/**
 * Opens a tab by its exact name (the sections of a client's page), as a user does: directly when it is
 * in view, else from the tab bar's "more" menu (antd moves the tabs that do not fit there).
 */
export async function openTab(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tab', { name, exact: true }).first();
  const [box, bar] = await Promise.all([
    tab.boundingBox(),
    page.locator('.ant-tabs-nav-wrap').first().boundingBox(),
  ]);
  if (box && bar && box.x >= bar.x && box.x + box.width <= bar.x + bar.width + 1) return tab.click();
  await page.locator('.ant-tabs-nav-more').first().hover();
  await page.locator('.ant-tabs-dropdown-menu-item').filter({ hasText: name }).first().click();
}

/** Picks an option of the open select dropdown by its text. */
export const pickOption = (page: Page, text: string) =>
  page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: text })
    .first()
    .click();

/** Types a day into a date picker's input and confirms it with Enter. */
export async function fillDay(input: Locator, day: string): Promise<void> {
  await input.click();
  await input.fill(day);
  await input.press('Enter');
}

/** The activation link of the newest mail to `to` in the server's outbox (quoted-printable undone). */
export function activationLink(to: string): string | null {
  const dir = join(inject('dataDir'), 'outbox');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml'));
  } catch {
    return null;
  }
  for (const f of files.sort().reverse()) {
    const text = readFileSync(join(dir, f), 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    if (!new RegExp(`^To: .*${to.replace(/[.]/g, '\\.')}`, 'mi').test(text)) continue;
    const m = /#\/activate\?token=([A-Za-z0-9_-]+)/.exec(text);
    if (m) return `${baseUrl()}/#/activate?token=${m[1]}`;
  }
  return null;
}
