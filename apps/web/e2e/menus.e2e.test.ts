import { describe, expect, it } from 'vitest';
import { USERS, goto, login, menuTexts, openPage, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

describe('each role sees its menu', () => {
  pageTest(
    browser,
    'provider admin: the admin menu with Masters; builder and profile open',
    { shot: 'menu-provider-admin', as: USERS.admin },
    async (page) => {
      await page.waitForURL(/#\/admin\/portfolio$/);
      const texts = await menuTexts(page);
      expect(texts).toEqual(
        expect.arrayContaining([
          'Portfolio',
          'Dashboard',
          'Upload Invoice',
          'Reports',
          'Masters',
          'Client Management',
        ]),
      );
      await goto(page, '/admin/dashboard/costAndUsage');
      await page.getByText('Choose a client to see its costs and usage.').waitFor();
      expect(await page.title()).toContain('Cost and Usage');
      await screenshot(page, 'shell-admin-dashboard-en');

      await goto(page, '/admin/master/plan');
      await page.getByRole('heading', { name: 'Plans' }).waitFor();
      await goto(page, '/builder');
      await page.getByTestId('builder-layout').waitFor();
      await screenshot(page, 'builder');
    },
  );

  it('consultant: no Masters, no client contracts or activity log', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.consultant);
    await goto(page, '/admin/reports/top-users');
    await page.getByRole('heading', { name: 'Top Users' }).waitFor();
    const texts = await menuTexts(page);
    expect(texts).toContain('Top Users');
    expect(texts).not.toContain('Masters');
    expect(texts).not.toContain('Client Contracts');
    expect(texts).not.toContain('Activity Log');
    await goto(page, '/admin/master/plan');
    await page.getByText('Access denied').waitFor();
    await context.close();
  });

  it('company admin: the company menu', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.companyAdmin);
    await page.waitForURL(/#\/company\/dashboard\/costAndUsage$/);
    const texts = await menuTexts(page);
    expect(texts).toEqual(
      expect.arrayContaining(['Dashboard', 'Upload Invoice', 'Reports', 'Management', 'Optimization']),
    );
    expect(texts).not.toContain('Masters');
    await context.close();
  });

  it('client user: no invoice upload, and the page itself answers 403', async () => {
    const { context, page } = await openPage(browser());
    await login(page, USERS.clientUser);
    const texts = await menuTexts(page);
    expect(texts).toContain('Dashboard');
    expect(texts).not.toContain('Upload Invoice');
    await goto(page, '/company/invoice-upload');
    await page.getByText('Access denied').waitFor();
    await context.close();
  });
});
