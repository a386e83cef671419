import { describe, expect, it } from 'vitest';
import { helsinkiDay } from '@kulu/shared';
import {
  USERS,
  activateAndLogin,
  baseUrl,
  fillDay,
  goto,
  login,
  menuTexts,
  onPage,
  openPage,
  openTab,
  pickOption,
  screenshot,
  switchLanguage,
  toast,
  toastsGone,
  tokenOf,
  useBrowser,
} from './browser';

const browser = useBrowser();

const COMPANY = 'Polku Testi Oy';
const OWNER = { email: 'paula@polkutesti.fi', password: 'Salasana1!' };
const USER = { name: 'Ulla Uusi', email: 'ulla.uusi@polkutesti.fi', password: 'Uusi-Salasana-7' };
const SUB_COMPANY = 'Polku Testi Helsinki';

/** The business day (Europe/Helsinki) of an instant as the date fields take it. */
const dmy = (d: Date) => helsinkiDay(d).split('-').reverse().join('/');

describe('a new customer from sign-up to its first user, and out again', () => {
  it(
    'signs up, is converted, gets a contract, a sub-company and a limited user who activates and logs in; a terminated contract locks the company out',
    { timeout: 300_000 },
    async () => {
      const signup = await fetch(`${baseUrl()}/api/Account/Signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'company',
          companyName: COMPANY,
          businessId: '7654321-2',
          fullName: 'Paula Polku',
          email: OWNER.email,
          contactNumber: '0401112222',
          password: OWNER.password,
        }),
      });
      expect(signup.status).toBe(201);

      const admin = await openPage(browser());
      const page = admin.page;
      await login(page, USERS.admin);
      await goto(page, '/client-management/client-management');
      await page.getByRole('tab', { name: 'Interested clients' }).click();
      const interested = page.locator('tr.ant-table-row').filter({ hasText: COMPANY });
      await interested.getByTestId('convert').click();
      await page.getByRole('menuitem', { name: 'To a company' }).click();
      // Converting asks first: the new company has no contract, so its users stay locked out.
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.getByText('It has no contract yet').waitFor();
      await confirm.getByRole('button', { name: 'Convert' }).click();
      await toast(page, 'Client converted to a company successfully');
      await toastsGone(page);
      await page.getByRole('tab', { name: 'Companies' }).click();
      await page.getByRole('link', { name: COMPANY }).click();
      await page.getByTestId('client-detail-page').waitFor();

      // A billing plan, then a contract valid today.
      await openTab(page, 'Billing management');
      await page.getByTestId('billing-plan-select').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Kulu Pro 36 kk' }).click();
      await page.getByTestId('billing-save').click();
      await toast(page, 'Billing plan saved successfully');
      await toastsGone(page);

      const now = new Date();
      const start = new Date(Date.UTC(now.getUTCFullYear(), 0, 1));
      const end = new Date(Date.UTC(now.getUTCFullYear() + 2, 11, 31));
      await openTab(page, 'Contracts');
      await page.getByTestId('contract-add').click();
      await page.locator('#term').fill('36 months');
      // A contract starting next week would leave the company locked out until then: a warning.
      await fillDay(page.locator('#startDate'), dmy(new Date(now.getTime() + 7 * 86_400_000)));
      await page.getByTestId('contract-starts-later').waitFor();
      await screenshot(page, 'onboarding-contract-starts-later-en');
      await fillDay(page.locator('#startDate'), dmy(start));
      await page.getByTestId('contract-starts-later').waitFor({ state: 'detached' });
      await fillDay(page.locator('#endDate'), dmy(end));
      await page.locator('#numberOfPlans').fill('5');
      await page.getByTestId('contract-submit').click();
      await toast(page, 'Contract added successfully');
      const contract = page.getByTestId('contracts-table').locator('tr.ant-table-row').first();
      await expect.poll(() => contract.innerText()).toContain('Active');
      await toastsGone(page);

      // A sub-company and a user limited to it, with the invoice upload besides the defaults.
      await openTab(page, 'Sub-companies');
      await page.getByTestId('sub-company-add').click();
      await page.getByTestId('sub-company-name').fill(SUB_COMPANY);
      await page.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'Sub-company added successfully');
      await toastsGone(page);

      await openTab(page, 'Additional users');
      await page.getByTestId('client-user-add').click();
      await page.getByTestId('client-user-name').fill(USER.name);
      await page.getByTestId('client-user-email').fill(USER.email);
      await page.getByTestId('client-user-subs').click();
      await pickOption(page, SUB_COMPANY);
      await page.keyboard.press('Escape');
      await page.getByRole('checkbox', { name: 'Upload invoice' }).check();
      await page.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'User added successfully');
      await toastsGone(page);
      await screenshot(page, 'onboarding-user-added-en');

      // The company's Invoice User Management, opened for this client from its page.
      await openTab(page, 'Invoice user management');
      await page.getByText('No users yet: add one or import a file').waitFor();
      await screenshot(page, 'onboarding-invoice-users-en');

      // The user follows the activation link from the outbox, sets a password and logs in.
      await onPage(browser(), 'onboarding-newcomer', async (newcomer) => {
        await activateAndLogin(newcomer, USER.email, USER.password);
        const menu = await menuTexts(newcomer);
        expect(menu).toEqual(expect.arrayContaining(['Dashboard', 'Upload Invoice']));
        expect(menu).not.toContain('Management');
        expect(menu).not.toContain('Masters');
        // No invoice yet: the dashboard points to Upload Invoice instead of empty charts.
        await newcomer.getByTestId('dashboard-no-invoices').waitFor();
        await newcomer.getByTestId('dashboard-upload-link').click();
        await newcomer.waitForURL(/#\/company\/invoice-upload/);
        // What the permissions leave out, the API refuses as well.
        const userToken = await tokenOf(newcomer);
        const masters = await fetch(`${baseUrl()}/api/plan-details`, {
          headers: { authorization: `Bearer ${userToken}` },
        });
        expect(masters.status).toBe(403);
        await screenshot(newcomer, 'onboarding-user-menu-en');
      });

      // Terminating the contract today locks the company out: a greyed menu and 403 from the API.
      await openTab(page, 'Contracts');
      await contract.getByRole('button', { name: 'Terminate' }).click();
      await fillDay(page.locator('#terminationDate'), dmy(now));
      await toast(page, 'Contract terminated successfully');
      await expect.poll(() => contract.innerText()).toContain('Terminated');

      const owner = await openPage(browser());
      await login(owner.page, OWNER.email, OWNER.password);
      // The locked-out user is told once what happened and what happens next: no refused page
      // behind it, no Retry.
      await owner.page.getByTestId('locked-out').waitFor();
      await owner.page.getByText('Your company has no contract in force at the moment').waitFor();
      expect(await owner.page.getByText(/no (valid )?contract/).count()).toBe(1);
      expect(await owner.page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      await switchLanguage(owner.page, 'fi');
      await owner.page.getByText('Yritykselläsi ei ole tällä hetkellä voimassa olevaa sopimusta').waitFor();
      await screenshot(owner.page, 'onboarding-locked-out-fi');
      await switchLanguage(owner.page, 'en');
      // Profile stays open and says why the menu is greyed.
      await owner.page.getByRole('button', { name: 'My Profile' }).click();
      await owner.page
        .getByText('The menu is disabled because your company has no valid contract or has been terminated')
        .waitFor();
      const invoices = await fetch(`${baseUrl()}/api/invoices`, {
        headers: { authorization: `Bearer ${await tokenOf(owner.page)}` },
      });
      expect(invoices.status).toBe(403);
      expect((await invoices.json()).code).toBe('menuDisabled');
      await screenshot(owner.page, 'onboarding-locked-out-en');
      await owner.context.close();
      expect(admin.errors).toEqual([]);
      await admin.context.close();
    },
  );
});
