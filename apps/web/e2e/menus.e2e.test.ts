import { describe, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { USERS, goto, menuTexts, pageTest, screenshot, useBrowser } from './browser';

const browser = useBrowser();

/**
 * A role's menu: signed in (on `path` first, its `heading` shown, or on the role's own landing page),
 * the menu shows each of `shows` and none of `lacks`; `denied` opens to "Access denied"; `then`
 * goes on from there.
 */
interface RoleMenu {
  title: string;
  shot: string;
  as: string;
  path?: string;
  heading?: string;
  landing?: RegExp;
  shows: string[];
  lacks?: string[];
  denied?: string;
  then?: (page: Page) => Promise<void>;
}

const MENUS: RoleMenu[] = [
  {
    title: 'provider admin: the admin menu with Masters; builder and profile open',
    shot: 'menu-provider-admin',
    as: USERS.admin,
    landing: /#\/admin\/portfolio$/,
    shows: ['Portfolio', 'Dashboard', 'Upload Invoice', 'Reports', 'Masters', 'Client Management'],
    async then(page) {
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
  },
  {
    title: 'consultant: no Masters, no client contracts or activity log',
    shot: 'menu-consultant',
    as: USERS.consultant,
    path: '/admin/reports/top-users',
    heading: 'Top Users',
    shows: ['Top Users'],
    lacks: ['Masters', 'Client Contracts', 'Activity Log'],
    denied: '/admin/master/plan',
  },
  {
    title: 'company admin: the company menu',
    shot: 'menu-company-admin',
    as: USERS.companyAdmin,
    landing: /#\/company\/dashboard\/costAndUsage$/,
    shows: ['Dashboard', 'Upload Invoice', 'Reports', 'Management', 'Optimization'],
    lacks: ['Masters'],
  },
  {
    title: 'client user: no invoice upload, and the page itself answers 403',
    shot: 'menu-client-user',
    as: USERS.clientUser,
    shows: ['Dashboard'],
    lacks: ['Upload Invoice'],
    denied: '/company/invoice-upload',
  },
];

describe('each role sees its menu', () => {
  for (const m of MENUS) {
    pageTest(browser, m.title, { shot: m.shot, as: m.as, path: m.path }, async (page) => {
      if (m.landing) await page.waitForURL(m.landing);
      if (m.heading) await page.getByRole('heading', { name: m.heading }).waitFor();
      const texts = await menuTexts(page);
      expect(texts).toEqual(expect.arrayContaining(m.shows));
      for (const entry of m.lacks ?? []) expect(texts).not.toContain(entry);
      if (m.denied) {
        await goto(page, m.denied);
        await page.getByText('Access denied').waitFor();
      }
      await m.then?.(page);
    });
  }
});
