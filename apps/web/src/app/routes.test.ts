import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CLIENT_USER_PERMISSIONS,
  MASTER_RESOURCES,
  ROLE,
  ROLE_PERMISSIONS,
  menuForUser,
} from '@kulu/shared';
import {
  ancestorKeys,
  canOpenBuilder,
  canOpenPage,
  groupRedirects,
  MASTER_PAGES,
  masterKeyOf,
  pageRoutes,
} from './routes';
import en from '../locales/en.json';
import fi from '../locales/fi.json';
import { textAt } from '../locales/text-at';

/** The page route at `path` (none when no page has it). */
const routeAt = (path: string) => pageRoutes().find((r) => r.path === path);

describe('routes from the shared route table', () => {
  const paths = pageRoutes().map((r) => r.path);

  it('has a page for every route of spec §2', () => {
    for (const p of [
      '/admin/dashboard/costAndUsage',
      '/admin/dashboard/savings',
      '/admin/invoice-upload',
      '/admin/reports/cost-summaries',
      '/admin/reports/Unused-Month-Count',
      '/admin/master/operators',
      '/admin/master/help',
      '/client-management/client-management',
      '/admin/invoice-optimization',
      '/company/dashboard/costAndUsage',
      '/company/report/cost-summaries',
      '/company/report/Unused-Month-Count',
      '/company/client-masters/invoice-user-management',
      '/company/client-masters/plan-details',
      '/company/invoice-optimization',
    ]) {
      expect(paths).toContain(p);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives every master page the typed key of its declared resource', () => {
    const masters = pageRoutes().filter((r) => r.page === 'master');
    expect(masters.length).toBe(Object.keys(MASTER_RESOURCES).length);
    for (const route of masters) {
      expect(route.masterKey, route.path).toBeDefined();
      expect(route.path).toBe(`/admin/master/${MASTER_RESOURCES[route.masterKey!].menuKey}`);
    }
    expect(routeAt('/admin/master/plan')?.masterKey).toBe('plans');
    expect(routeAt('/admin/master/cost-elements')?.masterKey).toBe('costElements');
    expect(routeAt('/admin/invoice-upload')?.masterKey).toBeUndefined();
  });

  it('shows the cost and usage dashboard on the admin and the company path', () => {
    expect(routeAt('/admin/dashboard/costAndUsage')?.page).toBe('cost-and-usage');
    expect(routeAt('/company/dashboard/costAndUsage')?.page).toBe('cost-and-usage');
    expect(routeAt('/admin/invoice-upload')?.page).toBe('invoice-upload');
  });

  it('shows the savings dashboard and the optimization page on the admin and the company path', () => {
    for (const base of ['/admin', '/company']) {
      expect(routeAt(`${base}/dashboard/savings`)?.page).toBe('savings');
      expect(routeAt(`${base}/invoice-optimization`)?.page).toBe('invoice-optimization');
    }
  });

  it('maps every declared master, and only those, from its declared menu key', () => {
    const declared = Object.entries(MASTER_RESOURCES).map(([key, m]) => [m.menuKey, key]);
    expect(Object.entries(MASTER_PAGES).sort()).toEqual(declared.sort());
  });

  it('finds no master for an entry of another page or an undeclared menu key', () => {
    expect(masterKeyOf({ key: 'plan', page: 'invoice-upload' })).toBeUndefined();
    expect(masterKeyOf({ key: 'no-such-master', page: 'master' })).toBeUndefined();
    expect(masterKeyOf({ key: 'plan', page: 'master' })).toBe('plans');
  });

  it('sends a group path to its first page', () => {
    const redirects = Object.fromEntries(groupRedirects().map((r) => [r.path, r.to]));
    expect(redirects['/admin/dashboard']).toBe('/admin/dashboard/costAndUsage');
    expect(redirects['/company/reports']).toBe('/company/report/cost-summaries');
    expect(redirects['/admin/master']).toBe('/admin/master/operators');
  });

  it('has every title in both languages', () => {
    for (const { titleKey } of pageRoutes()) {
      expect(typeof textAt(en, titleKey), `en ${titleKey}`).toBe('string');
      expect(typeof textAt(fi, titleKey), `fi ${titleKey}`).toBe('string');
    }
    for (const key of ['menu.reports.title', 'menu.masters.title', 'menu.clientMasters.title']) {
      expect(typeof textAt(en, key)).toBe('string');
      expect(typeof textAt(fi, key)).toBe('string');
    }
  });
});

describe('who may open what', () => {
  it('lets the admin open masters but not company pages', () => {
    const all = ROLE_PERMISSIONS[ROLE.providerAdmin];
    expect(canOpenPage('/admin/master/plan', ROLE.providerAdmin, all)).toBe(true);
    expect(canOpenPage('/company/invoice-upload', ROLE.providerAdmin, all)).toBe(false);
    expect(canOpenBuilder(ROLE.providerAdmin)).toBe(true);
  });

  it('keeps the consultant out of masters, client contracts and the activity log', () => {
    const perms = ROLE_PERMISSIONS[ROLE.consultant];
    expect(canOpenPage('/admin/master/plan', ROLE.consultant, perms)).toBe(false);
    expect(canOpenPage('/admin/reports/client-contracts', ROLE.consultant, perms)).toBe(false);
    expect(canOpenPage('/admin/reports/activity-log', ROLE.consultant, perms)).toBe(false);
    expect(canOpenPage('/admin/reports/top-users', ROLE.consultant, perms)).toBe(true);
    expect(canOpenBuilder(ROLE.consultant)).toBe(false);
  });

  it('limits a client user to their permissions', () => {
    const perms = DEFAULT_CLIENT_USER_PERMISSIONS;
    expect(canOpenPage('/company/report/cost-summaries', ROLE.clientUser, perms)).toBe(true);
    expect(canOpenPage('/company/invoice-upload', ROLE.clientUser, perms)).toBe(false);
    expect(canOpenPage('/admin/dashboard/costAndUsage', ROLE.clientUser, perms)).toBe(false);
  });

  it('finds the open sub-menus of a page', () => {
    const menu = menuForUser(ROLE.providerAdmin, ROLE_PERMISSIONS[ROLE.providerAdmin]);
    expect(ancestorKeys(menu, '/admin/master/plan')).toEqual(['/admin/master']);
    expect(ancestorKeys(menu, '/admin/invoice-upload')).toEqual([]);
    expect(ancestorKeys(menu, '/nowhere')).toBeNull();
  });
});
