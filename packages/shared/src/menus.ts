import type { Permission } from './permissions.js';
import { menuKindOf, type MenuKind } from './roles.js';

/**
 * The route table, which is also the menu (spec §2). The web router, the three menus and the
 * menu filtering for client users all read this one declaration.
 *
 * `titleKey` is a translation key of the web app; `icon` names an @ant-design/icons component;
 * `permission` is what a user needs to see the entry and open the page; `page` names the
 * on-demand page component (pages without their own screen yet show title and empty state).
 */
export interface MenuItem {
  key: string;
  path: string;
  titleKey: string;
  icon?: string;
  permission?: Permission;
  page?: string;
  children?: MenuItem[];
}

/** An entry at `<base>/<key>` (`base`: `/admin`, `/company`, a group's path). */
const at = (base: string, key: string, item: Omit<MenuItem, 'key' | 'path'>): MenuItem => ({
  key,
  path: `${base}/${key}`,
  ...item,
});

const dashboard = (base: string): MenuItem =>
  at(base, 'dashboard', {
    titleKey: 'menu.dashboard',
    icon: 'DashboardOutlined',
    children: [
      at(`${base}/dashboard`, 'costAndUsage', { titleKey: 'menu.costAndUsage', permission: 'dashboards' }),
      at(`${base}/dashboard`, 'savings', { titleKey: 'menu.savings', permission: 'savings' }),
    ],
  });

const invoiceUpload = (base: string): MenuItem =>
  at(base, 'invoice-upload', {
    titleKey: 'menu.invoiceUpload',
    icon: 'CloudUploadOutlined',
    permission: 'invoices.upload',
    page: 'invoice-upload',
  });

/** Cost and Usage under a base path (`/admin`, `/company`): where the portfolio's rows lead. */
export const costAndUsagePath = (base: string): string => dashboard(base).children![0].path;

/** Upload Invoice under a base path (`/admin`, `/company`): where empty dashboards point. */
export const invoiceUploadPath = (base: string): string => invoiceUpload(base).path;

const optimization = (base: string): MenuItem =>
  at(base, 'invoice-optimization', {
    titleKey: 'menu.optimization',
    icon: 'ThunderboltOutlined',
    permission: 'optimization.view',
  });

const alerts = (base: string): MenuItem =>
  at(base, 'alerts', { titleKey: 'menu.alerts', icon: 'BellOutlined', permission: 'alerts', page: 'alerts' });

/** The Alerts page under a base path (`/admin`, `/company`): where the header's bell leads. */
export const alertsPath = (base: string): string => alerts(base).path;

/** A report's page, shown by the page component `page` (its key unless named). */
const report = (
  base: string,
  key: string,
  titleKey: string,
  permission: Permission,
  page: string = key,
): MenuItem => at(base, key, { titleKey: `menu.reports.${titleKey}`, permission, page });

/**
 * The Reports group at `<base>/reports`, its pages under `reportBase`: the reports of both menus,
 * the menu's own (`own`), then the unused subscriptions.
 */
const reports = (base: string, reportBase: string, own: MenuItem[]): MenuItem =>
  at(base, 'reports', {
    titleKey: 'menu.reports.title',
    icon: 'BarChartOutlined',
    children: [
      report(reportBase, 'cost-summaries', 'costSummaries', 'reports.costSummary'),
      report(reportBase, 'usage-summaries', 'usageSummaries', 'reports.usageSummary'),
      report(reportBase, 'base-plan-types', 'basePlanTypes', 'reports.planType'),
      report(reportBase, 'top-users', 'topUsers', 'reports.topUsers'),
      report(reportBase, 'overcharged-plans', 'overchargedPlans', 'reports.overchargedPlans'),
      ...own,
      // An old key, and a page of another name.
      report(
        reportBase,
        'Unused-Month-Count',
        'unusedMonthCount',
        'reports.unusedMonthCount',
        'unused-subscriptions',
      ),
    ],
  });

/**
 * The master pages in the menu's order: a master's key (its declaration in MASTER_RESOURCES, its
 * permission `masters.<key>`) and its page's key (its path under /admin/master and, camel-cased, its
 * title). Listed here, not read from MASTER_RESOURCES: the menu is in the login page's bundle, which
 * must not carry the masters' zod schemas (issue 25, 200 KB). masters.test.ts checks that every
 * declared master is a page here with the same permission.
 */
const MASTER_MENU_KEYS = {
  operators: 'operators',
  countries: 'country',
  currencies: 'currency',
  costCenters: 'cost-centers',
  costGroups: 'cost-groups',
  costCategories: 'cost-category',
  costElements: 'cost-elements',
  plans: 'plan',
  planGroups: 'plan-groups',
  basePlanGroups: 'base-plan-groups',
  skippedNumbers: 'skipped-phone-number',
  billingPlans: 'client-billing-plan',
  help: 'help',
} as const;

const master = (key: keyof typeof MASTER_MENU_KEYS): MenuItem => {
  const page = MASTER_MENU_KEYS[key];
  return {
    key: page,
    path: `/admin/master/${page}`,
    titleKey: `menu.masters.${page.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`,
    permission: `masters.${key}` satisfies Permission,
    page: 'master',
  };
};

const clientManagement: MenuItem = {
  key: 'client-management',
  path: '/client-management/client-management',
  page: 'client-management',
  titleKey: 'menu.clientManagement',
  icon: 'TeamOutlined',
  permission: 'clients.manage',
};

/**
 * The landing page of provider admins and consultants (issue 26): a row per client they may see,
 * first in their menu so that sign-in opens it instead of a dashboard waiting for a client.
 */
const portfolio: MenuItem = {
  key: 'portfolio',
  path: '/admin/portfolio',
  titleKey: 'menu.portfolio',
  icon: 'AppstoreOutlined',
  permission: 'portfolio',
  page: 'portfolio',
};

/** The portfolio page (provider side). */
export const PORTFOLIO_PATH = portfolio.path;

export const ADMIN_MENU: MenuItem[] = [
  portfolio,
  dashboard('/admin'),
  invoiceUpload('/admin'),
  reports('/admin', '/admin/reports', [
    report('/admin/reports', 'client-contracts', 'clientContracts', 'reports.clientContracts'),
    report('/admin/reports', 'activity-log', 'activityLog', 'activityLog'),
    report('/admin/reports', 'consultant-billing', 'consultantBilling', 'consultantBilling'),
    report('/admin/reports', 'downloads', 'downloads', 'downloads'),
    report('/admin/reports', 'failed-invoice-download', 'failedInvoiceDownload', 'automation'),
    report('/admin/reports', 'full-automation', 'fullAutomation', 'automation'),
  ]),
  {
    key: 'master',
    path: '/admin/master',
    titleKey: 'menu.masters.title',
    icon: 'DatabaseOutlined',
    children: (Object.keys(MASTER_MENU_KEYS) as Array<keyof typeof MASTER_MENU_KEYS>).map(master),
  },
  clientManagement,
  optimization('/admin'),
  alerts('/admin'),
];

export const COMPANY_MENU: MenuItem[] = [
  dashboard('/company'),
  invoiceUpload('/company'),
  // The company's reports are under /company/report (singular), the group at /company/reports.
  reports('/company', '/company/report', [report('/company/report', 'downloads', 'downloads', 'downloads')]),
  {
    key: 'client-masters',
    path: '/company/client-masters',
    titleKey: 'menu.clientMasters.title',
    icon: 'ContactsOutlined',
    children: [
      {
        key: 'invoice-user-management',
        path: '/company/client-masters/invoice-user-management',
        titleKey: 'menu.clientMasters.invoiceUserManagement',
        permission: 'clientMasters.invoiceUsers',
        page: 'invoice-user-management',
      },
      {
        key: 'plan-details',
        path: '/company/client-masters/plan-details',
        titleKey: 'menu.clientMasters.planDetails',
        permission: 'clientMasters.planDetails',
        page: 'plan-details',
      },
    ],
  },
  optimization('/company'),
  alerts('/company'),
];

/**
 * Keep the entries the holder of `permissions` may open; a group whose children are all
 * gone disappears too. The consultant menu is the admin menu filtered this way.
 */
export function filterMenu(items: readonly MenuItem[], permissions: readonly string[]): MenuItem[] {
  const out: MenuItem[] = [];
  for (const item of items) {
    if (item.permission && !permissions.includes(item.permission)) continue;
    if (item.children) {
      const children = filterMenu(item.children, permissions);
      if (children.length === 0) continue;
      out.push({ ...item, children });
    } else out.push(item);
  }
  return out;
}

export function menuFor(kind: MenuKind): MenuItem[] {
  return kind === 'company' ? COMPANY_MENU : ADMIN_MENU;
}

/** The menu a user sees: their role's menu, cut to their permissions. */
export function menuForUser(roleId: number, permissions: readonly string[]): MenuItem[] {
  return filterMenu(menuFor(menuKindOf(roleId)), permissions);
}

/** Every leaf route of both menus (a page each), without duplicates. */
export function allMenuRoutes(): MenuItem[] {
  const seen = new Map<string, MenuItem>();
  const walk = (items: readonly MenuItem[]) => {
    for (const i of items) {
      if (i.children) walk(i.children);
      else seen.set(i.path, i);
    }
  };
  walk(ADMIN_MENU);
  walk(COMPANY_MENU);
  return [...seen.values()];
}

/** The page a user lands on after login. */
export function homePathFor(roleId: number, permissions: readonly string[]): string {
  const first = (items: MenuItem[]): string | undefined => {
    for (const i of items) {
      if (i.children) {
        const c = first(i.children);
        if (c) return c;
      } else return i.path;
    }
    return undefined;
  };
  return first(menuForUser(roleId, permissions)) ?? '/profile';
}

/** Pages outside the menus (spec §2 "screens named by the interface text"). */
export const PUBLIC_ROUTES = {
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  activate: '/activate',
  notFound: '/404',
} as const;

export const ACCOUNT_ROUTES = {
  profile: '/profile',
  changePassword: '/change-password',
  builder: '/builder',
} as const;

/**
 * Detail pages: declared here like the menu pages (one route table) but never shown in a menu.
 * They are opened from a table or a dashboard drill-down, under the user's base path (`/admin`
 * for provider users, `/company` for client users), with the row's id as `:id`.
 */
export interface DetailRoute {
  key: DetailKind | 'client';
  /** With the `:id` parameter, e.g. `/company/invoices/:id`. */
  path: string;
  titleKey: string;
  /**
   * The menu page it is opened from: whoever may open that page (its permission, under their own
   * base path) may open the detail; the menu shows that entry as the current one.
   */
  menuPath: string;
  /** The on-demand page component. */
  page: string;
}

export type DetailKind = 'invoice' | 'subscription';

const DETAIL_SEGMENT: Record<DetailKind, string> = { invoice: 'invoices', subscription: 'subscriptions' };

const detailRoutes = (base: string): DetailRoute[] => [
  {
    key: 'invoice',
    path: `${base}/${DETAIL_SEGMENT.invoice}/:id`,
    titleKey: 'pageTitle.invoice',
    menuPath: invoiceUpload(base).path,
    page: 'invoice-detail',
  },
  {
    key: 'subscription',
    path: `${base}/${DETAIL_SEGMENT.subscription}/:id`,
    titleKey: 'pageTitle.subscription',
    // The dashboards' drill-downs lead here.
    menuPath: dashboard(base).children![0].path,
    page: 'subscription-detail',
  },
];

/** A client of Client Management, opened from its list (provider users only: no base path). */
const CLIENT_DETAIL_ROUTE: DetailRoute = {
  key: 'client',
  path: `${clientManagement.path}/:id`,
  titleKey: 'pageTitle.client',
  menuPath: clientManagement.path,
  page: 'client-detail',
};

/** Every detail route of both bases, and the client's. */
export const DETAIL_ROUTES: readonly DetailRoute[] = [
  ...detailRoutes('/admin'),
  ...detailRoutes('/company'),
  CLIENT_DETAIL_ROUTE,
];

/** Client Management's list, where a client's page leads back to. */
export const CLIENT_MANAGEMENT_PATH = clientManagement.path;

/** The hash route of one client of Client Management: `/client-management/client-management/7`. */
export const clientDetailPath = (id: number): string => `${clientManagement.path}/${id}`;

/**
 * The hash route of one invoice or subscription under a base path (the session's `basePath`):
 * `detailPath('/company', 'subscription', 42)` → `/company/subscriptions/42`.
 */
export const detailPath = (base: string, kind: DetailKind, id: number): string =>
  `${base}/${DETAIL_SEGMENT[kind]}/${id}`;
