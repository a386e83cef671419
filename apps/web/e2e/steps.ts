import type { Browser, Locator, Page } from 'playwright-core';
import { USERS, openClient, openTab, pageTest, toast, type PageTestStart } from './browser';

/* Steps and starts of the screens that more than one suite works on (browser.ts: the general ones). */

/** A user section (a client's additional users, the provider's own users): its test ids' prefix. */
export type UserSection = 'client-user' | 'provider-user';

/**
 * A test on a section of the demo client Pohjola Rakennus Oy's page, as the provider admin opens it:
 * from the client list, then its tab `tab`.
 */
export function clientSectionTest(
  browser: () => Browser,
  title: string,
  start: { shot: string; tab: string; timeout?: number },
  walk: (page: Page) => Promise<void>,
): void {
  pageTest(browser, title, { shot: start.shot, timeout: start.timeout }, async (page) => {
    await openClient(page, 'Pohjola Rakennus Oy');
    await openTab(page, start.tab);
    await walk(page);
  });
}

/**
 * A test's start on the company admin's invoice upload page, once its invoice table shows; its
 * uploads are parsed under load, hence the long default.
 */
export const companyUpload = (shot: string, timeout = 420_000): PageTestStart => ({
  shot,
  as: USERS.companyAdmin,
  path: '/company/invoice-upload',
  ready: 'invoice-table',
  timeout,
});

/** A second user with `email`, another user's already, is refused on the field with `message`. */
export async function refuseTakenEmail(
  page: Page,
  section: UserSection,
  email: string,
  message: string,
): Promise<void> {
  await page.getByTestId(`${section}-add`).click();
  await page.getByTestId(`${section}-name`).fill('Toinen');
  await page.getByTestId(`${section}-email`).fill(email);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText(message).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
}

/** Deactivates the user of `row` after the confirmation, and waits for the toast that says so. */
export async function deactivateUser(page: Page, section: UserSection, row: Locator): Promise<void> {
  await row.getByTestId(`${section}-deactivate`).click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'Deactivate' }).click();
  await toast(page, 'User deactivated successfully');
}
