import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  USERS,
  openTab,
  pickOption,
  screenshot,
  screenshotWithoutToasts,
  switchLanguage,
  toast,
  useBrowser,
} from './browser';
import { clientSectionTest, deactivateUser, refuseTakenEmail } from './steps';

const browser = useBrowser();

describe('a client: sub-companies and additional users', () => {
  clientSectionTest(
    browser,
    'adds a sub-company and a user in English and shows both sections in Finnish',
    { shot: 'client-users', tab: 'Sub-companies', timeout: 240_000 },
    walk,
  );
});

/** From Sub-companies: the demo's two, a new one, and the spec's message for a name taken. */
async function walk(page: Page) {
  const subs = page.getByTestId('sub-companies-table');
  await subs.getByText('Pohjola Rakennus Tampere').waitFor();
  await page.getByTestId('sub-company-add').click();
  await page.getByTestId('sub-company-name').fill('Pohjola Rakennus Oulu');
  await page.getByTestId('sub-company-users').fill('12');
  await page.getByTestId('sub-company-plan').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
  await page.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'Sub-company added successfully');
  await subs.getByText('Pohjola Rakennus Oulu').waitFor();
  await page.getByTestId('sub-company-add').click();
  await page.getByTestId('sub-company-name').fill('pohjola rakennus oulu');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Sub-company name already exists').waitFor();
  await screenshot(page, 'client-sub-company-form-en');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await screenshotWithoutToasts(page, 'client-sub-companies-en');

  // Additional users: the demo client user, a new one limited to Helsinki.
  await openTab(page, 'Additional users');
  const users = page.getByTestId('client-users-table');
  await users.getByText('Mikko Korhonen').waitFor();
  await page.getByTestId('client-user-add').click();
  await page.getByTestId('client-user-email').fill('not-an-email');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Name is required').waitFor();
  await page.getByText('Email is invalid!').waitFor();
  await page.getByTestId('client-user-name').fill('Liisa Nieminen');
  await page.getByTestId('client-user-email').fill('liisa.nieminen@pohjolarakennus.fi');
  await page.getByTestId('client-user-phone').fill('+358 40 123 4567');
  await page.getByTestId('client-user-country').fill('Finland');
  await page.getByTestId('client-user-address').fill('Mannerheimintie 1, 00100 Helsinki');
  await page.getByTestId('client-user-subs').click();
  await pickOption(page, 'Pohjola Rakennus Helsinki');
  await page.keyboard.press('Escape');
  await page.getByRole('checkbox', { name: 'Upload invoice' }).check();
  await screenshot(page, 'client-user-form-en');
  await page.getByRole('button', { name: 'Save' }).click();
  await toast(page, 'User added successfully');
  await users.getByText('liisa.nieminen@pohjolarakennus.fi').waitFor();
  await expect.poll(() => users.innerText()).toContain('Not activated');

  // The email of another user: the spec's message on the field.
  await refuseTakenEmail(page, 'client-user', USERS.clientUser, 'Client user email already exists');

  // Deactivate after a confirmation.
  const row = users.locator('tr').filter({ hasText: 'Liisa Nieminen' });
  await deactivateUser(page, 'client-user', row);
  await row.getByTestId('client-user-activate').waitFor();
  await screenshotWithoutToasts(page, 'client-users-en');

  // The same sections in Finnish.
  await switchLanguage(page, 'fi');
  await openTab(page, 'Tytäryhtiöt');
  await subs.getByText('Pohjola Rakennus Oulu').waitFor();
  await screenshot(page, 'client-sub-companies-fi');
  await openTab(page, 'Lisäkäyttäjät');
  await users.getByText('Liisa Nieminen').waitFor();
  await screenshot(page, 'client-users-fi');
  await users.locator('tr').filter({ hasText: 'Liisa Nieminen' }).getByTestId('client-user-edit').click();
  await page.getByTestId('client-user-form').waitFor();
  await screenshot(page, 'client-user-form-fi');
}
