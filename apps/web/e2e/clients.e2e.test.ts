import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import {
  SCREENSHOTS,
  USERS,
  baseUrl,
  goto,
  pageTest,
  screenshot,
  switchLanguage,
  tableLoaded,
  tableRows,
  toastsGone,
  useBrowser,
} from './browser';

const browser = useBrowser();

const table = (page: Page) => page.getByTestId('clients-table');
/** The company names of the list, once it has loaded. */
const companyNames = async (page: Page) => {
  await tableLoaded(page, 'clients-table');
  return tableRows(page, 'clients-table').locator('td:first-child').allInnerTexts();
};

/** A screenshot for the suite, and a copy under /tmp/shots/clients for review. */
async function shot(page: Page, name: string) {
  await screenshot(page, name);
  const dir = '/tmp/shots/clients';
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(SCREENSHOTS, `${name}.png`), join(dir, `${name}.png`));
}

/** Chooses an option of one of the profile form's selects by its visible text. */
async function selectOption(page: Page, field: string, label: string) {
  await page
    .locator('.ant-form-item')
    .filter({ has: page.locator(`#client-profile_${field}`) })
    .locator('.ant-select')
    .click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: label })
    .first()
    .click();
}

describe('Client Management', () => {
  pageTest(
    browser,
    'lists the clients by tab, searches, converts a sign-up, in English and Finnish',
    { shot: 'clients-list', as: USERS.admin },
    async (page) => {
      // A company signs up: it waits among the interested clients.
      const signup = await fetch(`${baseUrl()}/api/Account/Signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'company',
          companyName: 'Selain Testi Oy',
          businessId: '1095028-8',
          fullName: 'Selma Selain',
          email: 'selma@selaintesti.fi',
          contactNumber: '0401234567',
          password: 'Salasana1!',
        }),
      });
      expect(signup.status).toBe(201);

      await goto(page, '/client-management/client-management');
      await page.getByTestId('client-management-page').waitFor();
      // The demo companies (other browser tests may have added clients before this one runs).
      await expect
        .poll(() => companyNames(page), { timeout: 20_000 })
        .toEqual(expect.arrayContaining(['Pohjola Rakennus Oy', 'Saimaan Logistiikka Oy']));
      await shot(page, 'clients-list-en');

      await page.getByTestId('search').locator('input').fill('0737546');
      await expect.poll(() => companyNames(page), { timeout: 10_000 }).toEqual(['Saimaan Logistiikka Oy']);
      await page.getByTestId('search').locator('input').fill('');

      await page.getByRole('tab', { name: 'Leads' }).click();
      await expect.poll(() => table(page).innerText(), { timeout: 10_000 }).toContain('No clients yet');

      await page.getByRole('tab', { name: 'Interested clients' }).click();
      await expect.poll(() => companyNames(page), { timeout: 10_000 }).toContain('Selain Testi Oy');
      await shot(page, 'clients-interested-en');
      await tableRows(page, 'clients-table')
        .filter({ hasText: 'Selain Testi Oy' })
        .getByTestId('convert')
        .click();
      await page.getByRole('menuitem', { name: 'To a company' }).click();
      // Converting asks first (the company has no contract yet).
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Convert' }).click();
      await page.getByText('Client converted to a company successfully').waitFor();
      await expect.poll(() => companyNames(page), { timeout: 10_000 }).not.toContain('Selain Testi Oy');
      await toastsGone(page);

      await switchLanguage(page, 'fi');
      await page.getByRole('tab', { name: 'Yritykset' }).click();
      await expect.poll(() => companyNames(page), { timeout: 10_000 }).toContain('Selain Testi Oy');
      expect(await table(page).innerText()).toContain('Aktiivinen');
      await shot(page, 'clients-companies-fi');
      await page.getByRole('tab', { name: 'Kiinnostuneet asiakkaat' }).click();
      // Converted, it waits there no more (another test's sign-up may).
      await expect.poll(() => table(page).innerText(), { timeout: 10_000 }).not.toContain('Selain Testi Oy');
      await page
        .getByRole('columnheader', { name: 'Rekisteröitynyt' })
        .or(page.getByText('Ei odottavia kiinnostuneita asiakkaita'))
        .first()
        .waitFor();
      await shot(page, 'clients-interested-fi');
      await switchLanguage(page, 'en');
    },
  );

  pageTest(
    browser,
    'opens a client, edits its profile, adds a consultant and assigns it a company, in English and Finnish',
    {
      shot: 'client-open-edit-assign',
      as: USERS.admin,
      path: '/client-management/client-management',
      ready: 'client-management-page',
    },
    async (page) => {
      await tableLoaded(page, 'clients-table');
      await page.getByTestId('client-link').filter({ hasText: 'Pohjola Rakennus Oy' }).click();
      await page.getByTestId('client-profile-form').waitFor();
      expect(await page.getByTestId('client-name').innerText()).toBe('Pohjola Rakennus Oy');
      const businessId = page.locator('#client-profile_businessId');
      const original = await businessId.inputValue();

      // A business id whose check digit is wrong is refused with the spec's message.
      await businessId.fill('1234567-2');
      await page.getByTestId('client-profile-save').click();
      await page.getByText('Business id is invalid!').waitFor();
      // Automation asks for the operator portal's username and password; manual hides them again.
      await selectOption(page, 'invoiceUploadMethod', 'Automation');
      await page.locator('#client-profile_portalUsername').waitFor();
      await shot(page, 'client-profile-en');
      await selectOption(page, 'invoiceUploadMethod', 'Manual');
      await expect.poll(() => page.locator('#client-profile_portalUsername').count()).toBe(0);

      await businessId.fill(original);
      await page.locator('#client-profile_address').fill('Rakentajankatu 5, 00100 Helsinki');
      await page.getByTestId('client-profile-save').click();
      await page.getByText('Customer updated successfully').waitFor();
      await page.reload();
      await page.getByTestId('client-profile-form').waitFor();
      expect(await page.locator('#client-profile_address').inputValue()).toBe(
        'Rakentajankatu 5, 00100 Helsinki',
      );

      // Add Customer: a consultant, who then opens on its sections.
      await page.getByTestId('client-back').click();
      await page.getByTestId('add-customer').click();
      await selectOption(page, 'kind', 'Consultant');
      await page.locator('#client-profile_companyName').fill('Konsultointi Testi Oy');
      await page.locator('#client-profile_businessId').fill('2345671-3');
      await page.locator('#client-profile_adminName').fill('Kalle Konsultti');
      await page.locator('#client-profile_email').fill('kalle@konsultointitesti.fi');
      await shot(page, 'client-add-en');
      await page.getByTestId('client-profile-save').click();
      await page.getByText('Customer added successfully').waitFor();
      await page.getByTestId('client-detail-page').waitFor();
      expect(await page.getByTestId('client-name').innerText()).toBe('Konsultointi Testi Oy');

      await page.getByRole('tab', { name: 'Assign companies' }).click();
      await page.getByTestId('assign-companies').waitFor();
      await expect
        .poll(() => page.getByTestId('assigned-table').innerText())
        .toContain('No companies assigned yet');
      await page.getByTestId('assign-select').click();
      await page.keyboard.type('Pohjola');
      await page.locator('.ant-select-item-option').filter({ hasText: 'Pohjola Rakennus Oy' }).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('assign-save').click();
      await page.getByText('Assigned companies saved successfully').waitFor();
      await expect
        .poll(() => page.getByTestId('assigned-table').innerText())
        .toContain('Pohjola Rakennus Oy');
      await toastsGone(page);
      await shot(page, 'client-assign-en');

      // Finnish after a reload: the same section, in Finnish.
      await switchLanguage(page, 'fi');
      await page.reload();
      await page.getByTestId('assign-companies').waitFor();
      await page.getByRole('tab', { name: 'Määritä yritykset' }).waitFor();
      await expect
        .poll(() => page.getByTestId('assigned-table').innerText())
        .toContain('Määritetyt yritykset');
      expect(await page.getByTestId('assigned-table').innerText()).toContain('Pohjola Rakennus Oy');
      await shot(page, 'client-assign-fi');
      await page.getByRole('tab', { name: 'Profiili' }).click();
      await page.locator('#client-profile_businessId').fill('2345671-4');
      await page.getByTestId('client-profile-save').click();
      await page.getByText('Y-tunnus on virheellinen!').waitFor();
      await shot(page, 'client-profile-fi');
      await page.getByTestId('client-back').click();
      await page.getByTestId('add-customer').click();
      await page.getByTestId('client-profile-form').waitFor();
      await shot(page, 'client-add-fi');
      await page.keyboard.press('Escape');
      await switchLanguage(page, 'en');
    },
  );

  pageTest(
    browser,
    'keeps a company admin out of Client Management',
    { shot: 'clients-company-admin', as: USERS.companyAdmin, path: '/client-management/client-management' },
    async (page) => {
      // The page answers "Access denied" (a count of 0 alone would pass before anything rendered).
      await page.getByTestId('forbidden').waitFor();
      expect(await page.getByTestId('client-management-page').count()).toBe(0);
    },
  );
});
