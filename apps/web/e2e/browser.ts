import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { languageCodeOf } from '@kulu/shared';
import {
  LANGUAGE_KEY,
  SESSION_KEYS,
  readSession,
  writeSession,
  type KeyValueStorage,
  type Session,
} from '../src/lib/storage';
import type { SuiteServer } from './global-setup';

export const PASSWORD = 'Kulu!2026';
export const USERS = {
  admin: 'admin@kulu.fi',
  consultant: 'konsultti@kulu.fi',
  companyAdmin: 'anna.virtanen@pohjolarakennus.fi',
  clientUser: 'mikko.korhonen@pohjolarakennus.fi',
} as const;

export const SCREENSHOTS = join(import.meta.dirname, 'screenshots');

/**
 * This test file's server: its worker's own (VITEST_POOL_ID runs from 1 to the workers' count, one
 * file at a time each), so files running side by side never share a server (global-setup.ts).
 */
export function server(): SuiteServer {
  const servers = inject('servers');
  const worker = Number(process.env.VITEST_POOL_ID);
  const own = servers[worker - 1];
  if (!Number.isInteger(worker) || !own) {
    throw new Error(
      `worker ${process.env.VITEST_POOL_ID} has no server of its own (${servers.length} started)`,
    );
  }
  return own;
}

export const baseUrl = (): string => server().baseUrl;

/** A valid Finnish business id (check digit) that no other test uses. */
export function businessId(): string {
  for (;;) {
    const base = String(Math.floor(1_000_000 + Math.random() * 8_999_999));
    const sum = [7, 9, 10, 5, 8, 4, 2].reduce((a, w, i) => a + w * Number(base[i]), 0) % 11;
    if (sum !== 1) return `${base}-${sum === 0 ? 0 : 11 - sum}`;
  }
}

/**
 * The file's browser: chromium launched before its tests and closed after them. Call it at the top
 * of a test file (`const browser = useBrowser();`) and use `browser()` in the tests.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is not launched yet (useBrowser runs in beforeAll)');
    return browser;
  };
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

/**
 * Runs `walk` on a fresh page: on a failure it leaves the screenshot `<name>-failure`; after the
 * walk, no page errors. The context is closed either way.
 */
export async function onPage(
  browser: Browser,
  name: string,
  walk: (page: Page) => Promise<void>,
): Promise<void> {
  const { context, page, errors } = await openPage(browser);
  try {
    try {
      await walk(page);
    } catch (e) {
      await screenshot(page, `${name}-failure`);
      throw e;
    }
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}

/** What a browser test starts from: who is signed in (in which language) and the path opened. */
export interface PageTestStart {
  /** The failure picture's name (`<shot>-failure`). */
  shot: string;
  as?: string;
  lang?: 'en' | 'fi';
  path?: string;
  /** The test id that shows once `path` has opened: waited for before the walk. */
  ready?: string;
  timeout?: number;
}

/**
 * A browser test: `walk` on a fresh page of the file's browser (onPage: the failure picture, no page
 * errors, the context closed), signed in as `as` and on `path` (`ready` shown) first when they are given.
 */
export function pageTest(
  browser: () => Browser,
  title: string,
  start: PageTestStart,
  walk: (page: Page) => Promise<void>,
): void {
  it(title, { timeout: start.timeout ?? 180_000 }, () =>
    onPage(browser(), start.shot, async (page) => {
      if (start.as) await login(page, start.as, PASSWORD, start.lang);
      if (start.path) await goto(page, start.path);
      if (start.ready) await page.getByTestId(start.ready).waitFor();
      await walk(page);
    }),
  );
}

/** Signs in as `user` (in `lang`) and opens the app's `path`. */
export async function openAs(
  page: Page,
  user: string,
  path: string,
  lang: 'en' | 'fi' = 'en',
): Promise<void> {
  await login(page, user, PASSWORD, lang);
  await goto(page, path);
}

/** The rows of the table with the test id `testId`. */
export const tableRows = (page: Page, testId: string): Locator =>
  page.getByTestId(testId).locator('tr.ant-table-row');

/** Waits until the table with the test id `testId` shows, without a spinner over it (its rows loaded). */
export async function tableLoaded(page: Page, testId: string): Promise<void> {
  const table = page.getByTestId(testId);
  await table.waitFor();
  await table.locator('.ant-spin-spinning').waitFor({ state: 'detached' });
}

/** "€12,345.67" or "-€5.00" (English) → 12345.67, -5 */
export const euros = (text: string): number => Number(text.replace(/[^\d.-]/g, ''));

/**
 * Clicks the export button (its test id, or the button) and opens the downloaded workbook's first
 * sheet.
 */
export async function exportSheet(
  page: Page,
  button: string | Locator,
): Promise<{ file: Download; sheet: ExcelJS.Worksheet }> {
  const download = page.waitForEvent('download');
  await (typeof button === 'string' ? page.getByTestId(button) : button).click();
  const file = await download;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile((await file.path())!);
  return { file, sheet: wb.worksheets[0]! };
}

/** The top users report as a sheet (its export, or the archive's file): ranked from 1, a row a subscription. */
export function expectTopUsersSheet(sheet: ExcelJS.Worksheet): void {
  expect(sheet.getRow(1).getCell(1).value).toBe('Rank');
  expect(sheet.getRow(2).getCell(1).value).toBe(1);
  expect(sheet.rowCount).toBeGreaterThan(5);
}

/**
 * Switches the interface to Finnish, waits until each of `texts` shows (the first of its places), and
 * keeps the picture `<shot>-fi`.
 */
export async function inFinnish(page: Page, shot: string, ...texts: Array<string | RegExp>): Promise<void> {
  await switchLanguage(page, 'fi');
  for (const text of texts) await page.getByText(text).first().waitFor();
  await screenshot(page, `${shot}-fi`);
}

/** Signs in as the provider admin and opens a client's page from the client list. */
export async function openClient(page: Page, name: string): Promise<void> {
  await openAs(page, USERS.admin, '/client-management/client-management');
  await page.getByRole('link', { name }).click();
  await page.getByTestId('client-detail-page').waitFor();
}

/** The session's bearer token, as a script would use it. */
export const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

/** The API as a script of a signed-in user calls it (apiOf). */
export interface Api {
  /** `method` on `/api${path}` with the user's bearer token, and `body` as JSON when given. */
  (path: string, method?: string, body?: unknown): Promise<Response>;
  /** The JSON answer of GET `/api${path}`. */
  get<T>(path: string): Promise<T>;
}

/** The API with the bearer token of the user signed in on `page`. */
export async function apiOf(page: Page): Promise<Api> {
  const token = await tokenOf(page);
  const call = (path: string, method = 'GET', body?: unknown) =>
    fetch(`${baseUrl()}/api${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return Object.assign(call, {
    get: async <T>(path: string) => (await (await call(path)).json()) as T,
  });
}

/** The id of the first client whose name or business id matches `q`. */
export const clientIdOf = async (api: Api, q: string): Promise<number> =>
  (await api.get<{ items: Array<{ id: number }> }>(`/clients?q=${q}`)).items[0]!.id;

/** A client the provider admin adds through the API (a new business id): its id. */
export async function addClient(api: Api, client: Record<string, unknown>): Promise<number> {
  const res = await api('/clients', 'POST', { businessId: businessId(), ...client });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { client: { id: number } }).client.id;
}

/**
 * Logs in and shows the interface in `lang`. The language is saved on the user, so an earlier test
 * may have left this user in the other one: a test starts from the language it asks for.
 *
 * The first sign-in of an identity in a run goes through the login form; later ones reuse its
 * session (issue 25: one form sign-in per identity, not one per test): the saved token is checked
 * with GET /api/Account/GetClientInfo, and its fresh answer is what the browser's storage gets, as
 * the login form would store it (the session fields, the user's saved language). A token the server
 * no longer takes (a changed password) signs in through the form again. `form: true` always does.
 */
export async function login(
  page: Page,
  email: string,
  password = PASSWORD,
  lang: 'en' | 'fi' = 'en',
  opts: { form?: boolean } = {},
): Promise<void> {
  const restored = !opts.form && (await restoreSession(page, email, password));
  // One line per sign-in, for the run's count of form sign-ins and reused sessions (decision 0022).
  appendFileSync(join(server().sessionDir, 'sign-ins.log'), `${restored ? 'reused' : 'form'} ${email}\n`);
  if (!restored) {
    await goto(page, '/login');
    await page.locator('#email').fill(email);
    await page.locator('#password').fill(password);
    await page.getByTestId('login-submit').click();
  }
  // The first sign-in after the server starts can wait behind the demo import on a loaded machine.
  await page.getByTestId('side-menu').waitFor({ timeout: 110_000 });
  if (!restored) saveSession(page, email, password, await storedSession(page));
  // The language the app shows or is about to show (a saved Finnish may still be loading while the
  // page says en): an earlier test may have left this user's saved language in the other one.
  const shown = await page.evaluate(
    (key) => [document.documentElement.lang, localStorage.getItem(key)],
    LANGUAGE_KEY,
  );
  if (shown.some((l) => l !== null && l !== lang)) await switchLanguage(page, lang);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

/** Where this run keeps the sessions of its form sign-ins (global-setup.ts). */
const sessionFile = (email: string, password: string): string =>
  join(
    server().sessionDir,
    `${createHash('sha256').update(`${email}\0${password}`).digest('hex').slice(0, 32)}.json`,
  );

/** The session fields the app keeps in localStorage (src/lib/storage.ts), as stored now. */
const storedSession = (page: Page): Promise<Record<string, string | null>> =>
  page.evaluate(
    (keys) => Object.fromEntries(keys.map((k) => [k, localStorage.getItem(k)])),
    SESSION_KEYS as string[],
  );

function saveSession(page: Page, email: string, password: string, stored: Record<string, string | null>) {
  if (!stored.token) throw new Error(`signing in as ${email} stored no token`);
  writeFileSync(sessionFile(email, password), JSON.stringify(readSession(mapStorage(stored))));
}

/** A Web Storage over a plain record (storage.ts reads and writes through this interface). */
function mapStorage(values: Record<string, string | null>): KeyValueStorage & { values: typeof values } {
  return {
    values,
    getItem: (k) => values[k] ?? null,
    setItem: (k, v) => void (values[k] = v),
    removeItem: (k) => void delete values[k],
  };
}

/**
 * Puts an earlier sign-in's session, refreshed from GetClientInfo, into this page's storage and
 * opens the home page. False when there is none or the server refuses its token.
 */
async function restoreSession(page: Page, email: string, password: string): Promise<boolean> {
  let saved: Session;
  try {
    saved = JSON.parse(readFileSync(sessionFile(email, password), 'utf8')) as Session;
  } catch {
    return false;
  }
  const res = await page.request.get(`${baseUrl()}/api/Account/GetClientInfo`, {
    headers: { authorization: `Bearer ${saved.token}` },
  });
  if (res.status() !== 200) return false;
  const info = (await res.json()) as Partial<Session>;
  const storage = mapStorage({});
  writeSession(storage, { ...saved, ...info, token: saved.token, token_type: saved.token_type });
  // The login form sets the user's saved language (nothing was picked on this fresh page).
  storage.setItem(LANGUAGE_KEY, languageCodeOf(info.languageID ?? saved.languageID));
  // Storage belongs to the origin: set it from a page of the server that is not the app.
  await page.goto(`${baseUrl()}/api/health`);
  await page.evaluate((values) => {
    localStorage.clear();
    for (const [k, v] of Object.entries(values)) if (v !== null) localStorage.setItem(k, v);
  }, storage.values);
  await goto(page, '/');
  return true;
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

/**
 * Reloads the page until `ready` holds: for what the server makes in the background after its start
 * (the demo import, the optimization after it). The global set-up waits until the server says the
 * import is ready, so this normally holds at the first look; else the page is loaded again every 3 s.
 */
export async function reloadUntil(
  page: Page,
  ready: () => Promise<boolean>,
  what: string,
  timeoutMs = 300_000,
): Promise<void> {
  if (await ready()) return;
  await expect
    .poll(
      async () => {
        await page.reload();
        return ready();
      },
      { timeout: timeoutMs, interval: 3_000, message: what },
    )
    .toBe(true);
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

/** Keeps the picture `name` once every toast is gone (the page as it stays, not a save's message). */
export async function screenshotWithoutToasts(page: Page, name: string): Promise<void> {
  await toastsGone(page);
  await screenshot(page, name);
}

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

/**
 * `email` follows the newest activation link of the server's outbox on `page`, sets `password`, and
 * signs in with it.
 */
export async function activateAndLogin(page: Page, email: string, password: string): Promise<void> {
  await expect.poll(() => activationLink(email), { timeout: 20_000 }).not.toBeNull();
  await page.goto(activationLink(email)!);
  await page.locator('#password').fill(password);
  await page.locator('#confirmPassword').fill(password);
  await page.locator('button[type=submit]').click();
  await page.getByTestId('login-submit').waitFor();
  await login(page, email, password);
}

/** The activation link of the newest mail to `to` in the server's outbox (quoted-printable undone). */
export const activationLink = (to: string): string | null => outboxLink(to, 'activate');

/** The reset link of the newest mail to `to` in the server's outbox. */
export const resetLink = (to: string): string | null => outboxLink(to, 'reset-password');

/** The `#/<route>?token=…` link of the newest mail to `to` in the server's outbox that has one. */
function outboxLink(to: string, route: 'activate' | 'reset-password'): string | null {
  const dir = join(server().dataDir, 'outbox');
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
    const m = new RegExp(`#/${route}\\?token=([A-Za-z0-9_-]+)`).exec(text);
    if (m) return `${baseUrl()}/#/${route}?token=${m[1]}`;
  }
  return null;
}
