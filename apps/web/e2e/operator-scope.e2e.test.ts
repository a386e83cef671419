import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  login,
  openPage,
  pickOption,
  reloadUntil,
  screenshotWithoutToasts,
  useBrowser,
} from './browser';

const browser = useBrowser();

const totalOf = (page: Page) =>
  page.getByTestId('dashboard-total-cost').locator('.ant-statistic-content').innerText();

/**
 * The demo invoices are parsed in the background after start: reload until the total has costs and
 * no invoice is being read (the global set-up has waited for the import to settle, so the first
 * look normally finds the final total).
 */
async function waitForFigures(page: Page): Promise<string> {
  let text = '';
  await reloadUntil(
    page,
    async () => {
      const reading = await page.evaluate(async () => {
        const res = await fetch('/api/invoices?pageSize=1&uploadState=in_progress', {
          headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
        });
        return res.ok ? ((await res.json()) as { total: number }).total : -1;
      });
      await page.getByTestId('dashboard-total-cost').waitFor();
      text = (await totalOf(page)).trim();
      return /[1-9]/.test(text) && reading === 0;
    },
    'settled costs on the dashboard',
  );
  return text;
}

/**
 * Chooses `name` in the header's operator picker and waits for the dashboard's total to change. The
 * switch is a request for a new token: it is awaited as such (a loaded server may take longer than a
 * poll's 15 s to answer it), and a click the dropdown did not take is tried again (CI once saw the
 * picker still on "All operators" after 15 s).
 */
async function choose(page: Page, name: string, before: string): Promise<string> {
  const picker = page.getByTestId('operator-switcher');
  for (let attempt = 1; ; attempt++) {
    const sent = page
      .waitForRequest((r) => r.url().endsWith('/api/session/operator') && r.method() === 'POST', {
        timeout: 10_000,
      })
      .then(
        (r) => r,
        () => null,
      );
    await picker.click();
    await pickOption(page, name);
    const request = await sent;
    if (request) {
      const res = await request.response();
      expect(res?.ok(), `switching to ${name} answered ${res?.status()}`).toBe(true);
      break;
    }
    if (attempt === 3) throw new Error(`choosing ${name} in the operator picker sent no request`);
    await page.keyboard.press('Escape');
  }
  await expect.poll(() => picker.innerText()).toContain(name);
  await expect.poll(() => totalOf(page), { timeout: 30_000 }).not.toBe(before);
  return totalOf(page);
}

describe('the operator picker in the header', () => {
  for (const [lang, all] of [
    ['en', 'All operators'],
    ['fi', 'Kaikki operaattorit'],
  ] as const) {
    it(
      `re-scopes the open cost dashboard to one operator and back to all (${lang})`,
      { timeout: 720_000 },
      async () => {
        const { context, page, errors } = await openPage(browser());
        // Two logins, reloads and a dashboard per language: give a loaded machine time.
        context.setDefaultNavigationTimeout(180_000);
        context.setDefaultTimeout(60_000);
        try {
          await login(page, USERS.companyAdmin, undefined, lang);
          await page.waitForURL(/#\/company\/dashboard\/costAndUsage$/);
          const everyone = await waitForFigures(page);
          const picker = page.getByTestId('operator-switcher');
          expect(await picker.innerText()).toContain(all);

          const elisa = await choose(page, 'Elisa', everyone);
          // The session keeps the choice: a reload shows Elisa's figures again.
          const stored = await page.evaluate(() => localStorage.getItem('loggedInOperatorID'));
          expect(stored).not.toBeNull();
          await page.reload();
          await expect.poll(() => totalOf(page), { timeout: 30_000 }).toBe(elisa);
          expect(await picker.innerText()).toContain('Elisa');
          await screenshotWithoutToasts(page, `operator-scope-elisa-${lang}`);

          const telia = await choose(page, 'Telia', elisa);
          expect(telia).not.toBe(everyone);
          expect(await choose(page, all, telia)).toBe(everyone);
          await screenshotWithoutToasts(page, `operator-scope-all-${lang}`);
          expect(errors).toEqual([]);
        } finally {
          await context.close();
        }
      },
    );
  }
});
