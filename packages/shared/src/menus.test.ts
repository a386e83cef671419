import { describe, expect, it } from 'vitest';
import { ADMIN_MENU, allMenuRoutes, COMPANY_MENU, homePathFor, menuForUser } from './menus.js';
import { effectivePermissions, ROLE_PERMISSIONS } from './permissions.js';
import { ROLE } from './roles.js';

const paths = (items: ReturnType<typeof menuForUser>): string[] =>
  items.flatMap((i) => [i.path, ...(i.children ? paths(i.children) : [])]);

describe('menus', () => {
  it('give the admin every route of spec §2', () => {
    const p = paths(menuForUser(ROLE.providerAdmin, effectivePermissions(ROLE.providerAdmin)));
    expect(p).toEqual(
      expect.arrayContaining([
        '/admin/master/plan',
        '/admin/reports/client-contracts',
        '/admin/reports/activity-log',
        '/client-management/client-management',
        '/admin/invoice-optimization',
      ]),
    );
    expect(paths(ADMIN_MENU).filter((x) => x.startsWith('/admin/master/'))).toHaveLength(13);
    expect(paths(ADMIN_MENU).filter((x) => x.startsWith('/admin/reports/'))).toHaveLength(12);
  });

  it('land provider admins and consultants on the portfolio, company users on their dashboard', () => {
    expect(homePathFor(ROLE.providerAdmin, effectivePermissions(ROLE.providerAdmin))).toBe(
      '/admin/portfolio',
    );
    expect(homePathFor(ROLE.consultant, effectivePermissions(ROLE.consultant))).toBe('/admin/portfolio');
    expect(homePathFor(ROLE.companyAdmin, effectivePermissions(ROLE.companyAdmin))).toBe(
      '/company/dashboard/costAndUsage',
    );
    // A provider user whose chosen permissions leave the portfolio out lands on the dashboard.
    expect(homePathFor(ROLE.consultant, effectivePermissions(ROLE.consultant, ['dashboards']))).toBe(
      '/admin/dashboard/costAndUsage',
    );
  });

  it('give the consultant the admin menu without Masters, client contracts and activity log', () => {
    const p = paths(menuForUser(ROLE.consultant, ROLE_PERMISSIONS[ROLE.consultant]));
    expect(p.some((x) => x.startsWith('/admin/master'))).toBe(false);
    expect(p).not.toContain('/admin/reports/client-contracts');
    expect(p).not.toContain('/admin/reports/activity-log');
    expect(p).toContain('/admin/reports/consultant-billing');
  });

  it('give the company its own routes, reports under /company/report/', () => {
    const p = paths(menuForUser(ROLE.companyAdmin, effectivePermissions(ROLE.companyAdmin)));
    expect(p.every((x) => x.startsWith('/company/'))).toBe(true);
    expect(p).toContain('/company/report/Unused-Month-Count');
    expect(p).toContain('/company/client-masters/plan-details');
    expect(paths(COMPANY_MENU)).toHaveLength(17);
  });

  it('hide the entries a client user lacks, and groups left empty', () => {
    const p = paths(menuForUser(ROLE.clientUser, effectivePermissions(ROLE.clientUser, ['dashboards'])));
    expect(p).toEqual(['/company/dashboard', '/company/dashboard/costAndUsage']);
    expect(homePathFor(ROLE.clientUser, ['dashboards'])).toBe('/company/dashboard/costAndUsage');
    expect(homePathFor(ROLE.clientUser, [])).toBe('/profile');
  });

  it('list each page once', () => {
    const all = allMenuRoutes().map((r) => r.path);
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('effective permissions', () => {
  it('cut a client user to the company-side set', () => {
    expect(effectivePermissions(ROLE.clientUser, ['masters.plans', 'dashboards'])).toEqual(['dashboards']);
  });
});
