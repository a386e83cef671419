import { describe, expect } from 'vitest';
import {
  USERS,
  activateAndLogin,
  apiOf,
  goto,
  menuTexts,
  onPage,
  pageTest,
  pickOption,
  screenshot,
  switchLanguage,
  toast,
  toastsGone,
  useBrowser,
} from './browser';
import { deactivateUser, refuseTakenEmail } from './steps';

const browser = useBrowser();

const CONSULTANT = {
  name: 'Kalle Konsultti',
  email: 'kalle.konsultti@kulu.fi',
  password: 'Konsultti-Salasana-9',
};

describe('the provider’s own users', () => {
  pageTest(
    browser,
    'an admin adds a consultant with one company and limited permissions; the consultant activates and sees only those',
    {
      shot: 'provider-users',
      as: USERS.admin,
      path: '/client-management/client-management',
      timeout: 240_000,
    },
    async (page) => {
      await page.getByRole('tab', { name: 'Users' }).click();
      const table = page.getByTestId('provider-users-table');
      await table.getByText(USERS.consultant).waitFor();

      await page.getByTestId('provider-user-add').click();
      await page.getByTestId('provider-user-name').fill(CONSULTANT.name);
      await page.getByTestId('provider-user-email').fill(CONSULTANT.email);
      await page.getByTestId('provider-user-companies').click();
      await pickOption(page, 'Pohjola Rakennus Oy');
      await page.keyboard.press('Escape');
      // A new consultant starts with everything the role allows; take the optimization away.
      const permissions = page.getByTestId('provider-user-permissions');
      await expect
        .poll(() => permissions.getByRole('checkbox', { name: 'Client management' }).isChecked())
        .toBe(true);
      expect(await permissions.getByRole('checkbox', { name: 'Operators', exact: true }).count()).toBe(0);
      expect(await permissions.getByRole('checkbox', { name: 'User management', exact: true }).count()).toBe(
        0,
      );
      for (const name of ['View', 'Export', 'Re-optimize', 'Mark for optimization'])
        await permissions.getByRole('checkbox', { name, exact: true }).uncheck();
      await screenshot(page, 'provider-user-form-en');
      await page.getByRole('button', { name: 'Save' }).click();
      await toast(page, 'User added successfully; an activation link was sent by email');
      await toastsGone(page);
      const row = table.locator('tr.ant-table-row').filter({ hasText: CONSULTANT.email });
      await expect.poll(() => row.innerText()).toContain('Invited');
      expect(await row.innerText()).toContain('Pohjola Rakennus Oy');
      await screenshot(page, 'provider-users-en');

      // The same email again is refused on the field.
      await refuseTakenEmail(
        page,
        'provider-user',
        CONSULTANT.email,
        'A user with this email already exists',
      );

      // The consultant activates from the outbox, logs in: one company, no optimization.
      await onPage(browser(), 'provider-users-newcomer', async (newcomer) => {
        await activateAndLogin(newcomer, CONSULTANT.email, CONSULTANT.password);
        const menu = await menuTexts(newcomer);
        expect(menu).toContain('Client Management');
        expect(menu).not.toContain('Optimization');
        expect(menu).not.toContain('Masters');
        await goto(newcomer, '/client-management/client-management');
        const clients = newcomer.getByTestId('clients-table').locator('tr.ant-table-row');
        await expect
          .poll(() => clients.allInnerTexts())
          .toEqual([expect.stringContaining('Pohjola Rakennus Oy')]);
        expect(await newcomer.getByRole('tab', { name: 'Users' }).count()).toBe(0);
        expect((await (await apiOf(newcomer))('/provider-users')).status).toBe(403);
      });

      // Deactivated after a confirmation; then Finnish.
      await deactivateUser(page, 'provider-user', row);
      await expect.poll(() => row.innerText()).toContain('Inactive');
      await switchLanguage(page, 'fi');
      await page.getByRole('tab', { name: 'Käyttäjät' }).waitFor();
      await row.getByTestId('provider-user-edit').click();
      await page.getByText('Käyttöoikeudet').first().waitFor();
      await screenshot(page, 'provider-user-form-fi');
      await page.getByRole('button', { name: 'Peruuta' }).click();
      await screenshot(page, 'provider-users-fi');
    },
  );
});
