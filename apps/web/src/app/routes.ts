import {
  ACCOUNT_ROUTES,
  ADMIN_MENU,
  COMPANY_MENU,
  DETAIL_ROUTES,
  ROLE,
  allMenuRoutes,
  menuForUser,
  type MasterKey,
  type MenuItem,
} from '@kulu/shared';

/** A page of the shell, built from the shared route table (which is also the menu). */
export interface PageRoute {
  path: string;
  titleKey: string;
  /** Name of the on-demand page component; pages without one show the placeholder. */
  page?: string;
  /** Pages of the generic master screen: the declared resource it shows. */
  masterKey?: MasterKey;
}

/**
 * The master resource each /admin/master menu entry shows (menu key → its typed key; the
 * declarations' `menuKey`, which a test keeps equal). A literal map with a type-only import:
 * the router stays free of the declarations' runtime (they load with the masters chunk), and a
 * key that is not a declared master does not compile.
 */
export const MASTER_PAGES = {
  operators: 'operators',
  country: 'countries',
  currency: 'currencies',
  'cost-centers': 'costCenters',
  'cost-groups': 'costGroups',
  'cost-category': 'costCategories',
  'cost-elements': 'costElements',
  plan: 'plans',
  'plan-groups': 'planGroups',
  'base-plan-groups': 'basePlanGroups',
  'skipped-phone-number': 'skippedNumbers',
  'client-billing-plan': 'billingPlans',
  help: 'help',
} as const satisfies Record<string, MasterKey>;

/** The master key of a menu entry whose page is the generic master screen. */
export const masterKeyOf = (item: Pick<MenuItem, 'key' | 'page'>): MasterKey | undefined =>
  item.page === 'master' && Object.hasOwn(MASTER_PAGES, item.key)
    ? MASTER_PAGES[item.key as keyof typeof MASTER_PAGES]
    : undefined;

/** A menu group's own path (e.g. /admin/reports) leads to its first page. */
export interface GroupRedirect {
  path: string;
  to: string;
}

/**
 * Menu entries whose screen the shared route table does not name (no `page`): the screen by the
 * entry's key, for the admin and the company path alike.
 */
export const PAGES_BY_KEY: Readonly<Record<string, string>> = {
  costAndUsage: 'cost-and-usage',
  savings: 'savings',
  'invoice-optimization': 'invoice-optimization',
};

/** Every leaf of both menus becomes a page route (spec §2). */
export const pageRoutes = (): PageRoute[] =>
  allMenuRoutes().map((item) => {
    const masterKey = masterKeyOf(item);
    const page = item.page ?? (Object.hasOwn(PAGES_BY_KEY, item.key) ? PAGES_BY_KEY[item.key] : undefined);
    return { path: item.path, titleKey: item.titleKey, page, ...(masterKey && { masterKey }) };
  });

/**
 * Pages opened from a menu page's table or a drill-down (an invoice, a subscription, a client):
 * open to whoever may open that menu page (`route.path`), under their own address pattern.
 */
export const detailPageRoutes = (): Array<{ pattern: string; route: PageRoute }> => [
  // Invoice and subscription detail under /admin and /company, a client of Client Management.
  ...DETAIL_ROUTES.map((d) => ({
    pattern: d.path,
    route: { path: d.menuPath, titleKey: d.titleKey, page: d.page },
  })),
];

export function groupRedirects(): GroupRedirect[] {
  const out = new Map<string, string>();
  const walk = (items: readonly MenuItem[]) => {
    for (const item of items) {
      if (!item.children?.length) continue;
      if (!out.has(item.path)) out.set(item.path, firstLeaf(item.children));
      walk(item.children);
    }
  };
  walk(ADMIN_MENU);
  walk(COMPANY_MENU);
  return [...out].map(([path, to]) => ({ path, to }));
}

const firstLeaf = (items: readonly MenuItem[]): string => {
  const [first] = items;
  return first.children?.length ? firstLeaf(first.children) : first.path;
};

export const leafPaths = (items: readonly MenuItem[]): string[] =>
  items.flatMap((i) => (i.children?.length ? leafPaths(i.children) : [i.path]));

/**
 * Whether a user may open a menu page: it must be in the menu of their role, cut to their
 * permissions (the server decides again on every call; this only spares a useless screen).
 */
export const canOpenPage = (path: string, roleId: number, permissions: readonly string[]): boolean =>
  leafPaths(menuForUser(roleId, permissions)).includes(path);

/** The layout builder belongs to the provider admin. */
export const canOpenBuilder = (roleId: number): boolean => roleId === ROLE.providerAdmin;

/** The group keys on the way to a page (to open the right sub-menus). */
export function ancestorKeys(
  items: readonly MenuItem[],
  path: string,
  trail: string[] = [],
): string[] | null {
  for (const item of items) {
    if (item.path === path && !item.children?.length) return trail;
    if (item.children?.length) {
      const found = ancestorKeys(item.children, path, [...trail, item.path]);
      if (found) return found;
    }
  }
  return null;
}

/** Title key of any page path (menus, account pages), for document.title and headings. */
export function titleKeyOf(path: string): string | undefined {
  const page = allMenuRoutes().find((r) => r.path === path);
  if (page) return page.titleKey;
  const account: Record<string, string> = {
    [ACCOUNT_ROUTES.profile]: 'pageTitle.profile',
    [ACCOUNT_ROUTES.changePassword]: 'pageTitle.changePassword',
    [ACCOUNT_ROUTES.builder]: 'pageTitle.builder',
  };
  return account[path];
}
