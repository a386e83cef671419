import { describe, expect, it } from 'vitest';
import { PASSWORD, USERS, goto, login, openPage, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

describe('language and theme are kept', () => {
  it('keeps Finnish after a reload, and on the user', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.admin);
    await page.locator('[data-testid=language-switch] [data-lang=fi]').click();
    await page.getByTestId('side-menu').getByText('Kojelauta').waitFor();
    // The provider admin lands on the client portfolio (issue 26), now in Finnish.
    await page.getByRole('heading', { name: 'Asiakassalkku' }).waitFor();
    await screenshot(page, 'shell-admin-portfolio-fi');
    await page.reload();
    await page.getByTestId('side-menu').getByText('Perustiedot').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('fi');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('languageID'))).toBe('2');

    // Back to English for the other tests (the language is saved on the user).
    await page.locator('[data-testid=language-switch] [data-lang=en]').click();
    await page.getByTestId('side-menu').getByText('Dashboard').waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('languageID'))).toBe('1');
    await context.close();
  });

  pageTest(
    browser,
    'applies a theme at once and keeps it after a reload',
    { shot: 'settings-theme', as: USERS.companyAdmin, path: '/profile' },
    async (page) => {
      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByTestId('theme-3').click();
      await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe('3');
      await page.getByText('Settings saved').waitFor();
      await screenshot(page, 'profile-settings-theme-3');
      await page.reload();
      await page.getByTestId('side-menu').waitFor();
      expect(await page.evaluate(() => document.body.dataset.theme)).toBe('3');
      expect(await page.evaluate(() => localStorage.getItem('applicationThemeID'))).toBe('3');

      await page.getByRole('tab', { name: 'Settings' }).click();
      await page.getByTestId('theme-1').click();
      await expect.poll(() => page.evaluate(() => document.body.dataset.theme)).toBe('1');
      await page.getByRole('tab', { name: 'Account' }).click();
      await screenshot(page, 'profile');
    },
  );

  pageTest(
    browser,
    'chooses how alert digests are mailed, keeps it after a reload, in English and Finnish',
    { shot: 'settings-alert-digest', as: USERS.companyAdmin, path: '/profile' },
    async (page) => {
      await page.getByRole('tab', { name: 'Settings' }).click();
      const digest = page.getByTestId('settings-alert-digest');
      await page.getByText('Alert digest by email').waitFor();
      // The demo company admin gets each digest at once (docs/demo.md); change it to daily.
      await expect.poll(() => digest.getByRole('radio', { name: 'Immediately' }).isChecked()).toBe(true);
      await digest.getByText('Daily').click();
      await page.getByText('Settings saved').waitFor();
      await page.reload();
      await page.getByRole('tab', { name: 'Settings' }).click();
      await expect.poll(() => digest.getByRole('radio', { name: 'Daily' }).isChecked()).toBe(true);
      await screenshot(page, 'profile-settings-alert-digest');

      await page.locator('[data-testid=language-switch] [data-lang=fi]').click();
      await page.getByText('Hälytyskooste sähköpostiin').waitFor();
      await expect.poll(() => digest.getByRole('radio', { name: 'Päivittäin' }).isChecked()).toBe(true);
      await screenshot(page, 'profile-settings-alert-digest-fi');
      // Back as the demo has it, and back to English for the other tests.
      await digest.getByText('Välittömästi').click();
      await page.getByText('Asetukset tallennettu').waitFor();
      await page.locator('[data-testid=language-switch] [data-lang=en]').click();
      await page.getByText('Alert digest by email').waitFor();
      await expect.poll(() => digest.getByRole('radio', { name: 'Immediately' }).isChecked()).toBe(true);
    },
  );

  it('minimizes the fixed header after 200 px of scroll', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.admin);
    const header = page.getByTestId('app-header');
    expect(await header.getAttribute('class')).not.toContain('header-minimized');
    await page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      window.scrollTo(0, 400);
    });
    await expect.poll(() => header.getAttribute('class')).toContain('header-minimized');
    await context.close();
  });

  it('changes the password and stays logged in (then changes it back)', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.clientUser);
    const change = async (from: string, to: string) => {
      await goto(page, '/change-password');
      await page.locator('#oldPassword').fill(from);
      await page.locator('#newPassword').fill(to);
      await page.locator('#confirmPassword').fill(to);
      await page.getByRole('button', { name: 'Change password' }).click();
      await page.getByText('Password changed successfully').first().waitFor();
    };
    await goto(page, '/change-password');
    await page.locator('#oldPassword').fill('Wrong!2026');
    await page.locator('#newPassword').fill('Uusi!2027x');
    await page.locator('#confirmPassword').fill('Uusi!2027y');
    await page.getByText('The passwords do not match').waitFor();
    await change(PASSWORD, 'Uusi!2027x');
    await goto(page, '/profile');
    await page.getByRole('tab', { name: 'Account' }).waitFor();
    expect(page.url()).toContain('#/profile');
    await change('Uusi!2027x', PASSWORD);
    await context.close();
  });
});
