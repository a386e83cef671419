import { ROLE, type RoleId } from './roles.js';

/**
 * The access catalogue: every permission of spec §6, grouped as the spec groups them.
 * A permission is a string key; API routes declare the key they need, menus and pages read
 * the same keys. Provider admins hold all of them; the other roles hold the sets below.
 */
export const PERMISSION_GROUPS = {
  general: ['general'],
  dashboards: ['dashboards'],
  uploadInvoice: ['invoices.upload', 'invoices.delete'],
  clientManagement: ['clients.manage'],
  reports: [
    'reports.costSummary',
    'reports.usageSummary',
    'reports.planType',
    'reports.topUsers',
    'reports.overchargedPlans',
    'reports.clientContracts',
  ],
  clientMasters: [
    'clientMasters.invoiceUsers',
    'clientMasters.planDetails',
    'clientMasters.operatorContracts',
  ],
  optimization: ['optimization.view', 'optimization.export', 'optimization.reoptimize', 'optimization.mark'],
  providerMasters: [
    'masters.operators',
    'masters.countries',
    'masters.currencies',
    'masters.costCenters',
    'masters.costGroups',
    'masters.costCategories',
    'masters.costElements',
    'masters.plans',
    'masters.planGroups',
    'masters.basePlanGroups',
    'masters.skippedNumbers',
    'masters.billingPlans',
    'masters.help',
  ],
  consultantBilling: ['consultantBilling'],
  downloads: ['downloads'],
  unusedMonthCount: ['reports.unusedMonthCount'],
  savings: ['savings'],
  alerts: ['alerts'],
  /** Provider-only areas that the spec names as screens but not as client permissions. */
  provider: ['activityLog', 'automation', 'layout.builder', 'users.manage'],
  /** The provider's portfolio: a row per client the caller may see (issue 26; decision 0025). */
  portfolio: ['portfolio'],
} as const;

export type PermissionGroup = keyof typeof PERMISSION_GROUPS;

/**
 * Assigning companies to a consultant firm decides which provider-side users see a company: user
 * management, held by provider admins only (consultants are excluded below).
 */
export const ASSIGN_COMPANIES_PERMISSION: Permission = 'users.manage';
export type Permission = (typeof PERMISSION_GROUPS)[PermissionGroup][number];

export const ALL_PERMISSIONS: readonly Permission[] = Object.values(PERMISSION_GROUPS).flat();

export const isPermission = (p: string): p is Permission =>
  (ALL_PERMISSIONS as readonly string[]).includes(p);

/** Optimization access levels of spec §6: "All" and "View". */
export const OPTIMIZATION_LEVELS = {
  all: ['optimization.view', 'optimization.export', 'optimization.reoptimize', 'optimization.mark'],
  view: ['optimization.view', 'optimization.export'],
} as const satisfies Record<string, readonly Permission[]>;

const CONSULTANT_EXCLUDED: readonly Permission[] = [
  'reports.clientContracts',
  // Deleting an invoice takes its costs from every screen of the company: its admin or the provider's.
  'invoices.delete',
  'activityLog',
  'layout.builder',
  'users.manage',
  ...PERMISSION_GROUPS.providerMasters,
];

/** What a client company may ever have: its admin has all of it, its users a chosen subset. */
export const COMPANY_PERMISSIONS: readonly Permission[] = [
  'general',
  'dashboards',
  'savings',
  'invoices.upload',
  'invoices.delete',
  'reports.costSummary',
  'reports.usageSummary',
  'reports.planType',
  'reports.topUsers',
  'reports.overchargedPlans',
  'reports.unusedMonthCount',
  'downloads',
  'alerts',
  ...PERMISSION_GROUPS.clientMasters,
  ...PERMISSION_GROUPS.optimization,
];

export const ROLE_PERMISSIONS: Record<RoleId, readonly Permission[]> = {
  [ROLE.providerAdmin]: ALL_PERMISSIONS,
  [ROLE.consultant]: ALL_PERMISSIONS.filter((p) => !CONSULTANT_EXCLUDED.includes(p)),
  [ROLE.companyAdmin]: COMPANY_PERMISSIONS,
  [ROLE.clientUser]: COMPANY_PERMISSIONS,
};

/** Permissions a client user gets when none were chosen for them. */
export const DEFAULT_CLIENT_USER_PERMISSIONS: readonly Permission[] = [
  'general',
  'dashboards',
  'savings',
  'reports.costSummary',
  'reports.usageSummary',
  'optimization.view',
  'optimization.export',
  'alerts',
];

/**
 * The one function that decides a user's permissions. Client users and the provider's own admins
 * and consultants hold the intersection of their own list with their role's set (no list chosen:
 * a client user gets the default set, a provider user the whole role set); company admins hold
 * their role's set. Decision: docs/decisions/0012-provider-users.md.
 */
export function effectivePermissions(
  roleId: number,
  userPermissions?: readonly string[] | null,
): Permission[] {
  const roleSet = ROLE_PERMISSIONS[roleId as RoleId] ?? [];
  if (roleId === ROLE.companyAdmin) return [...roleSet];
  const own =
    roleId === ROLE.clientUser
      ? new Set(userPermissions ?? DEFAULT_CLIENT_USER_PERMISSIONS)
      : userPermissions
        ? new Set(userPermissions)
        : null;
  return own ? roleSet.filter((p) => own.has(p)) : [...roleSet];
}

export const hasPermission = (held: readonly string[], needed: Permission): boolean => held.includes(needed);
