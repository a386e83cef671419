import type { ComponentType, LazyExoticComponent } from 'react';
import type { MasterKey } from '@kulu/shared';
import { lazyPage } from './lazy-page';

type PlaceholderModule = typeof import('./placeholder-page'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a module type for the lazy loader
type MasterPageModule = typeof import('../features/masters/master-route-page'); // eslint-disable-line @typescript-eslint/consistent-type-imports -- a module type for the lazy loader

/** Public and account pages, each its own chunk (spec §2: every page loads on demand). */
export const LoginPage = lazyPage(() => import('../features/auth/login-page'), 'LoginPage');
export const SignupPage = lazyPage(() => import('../features/auth/signup-page'), 'SignupPage');
export const ForgotPasswordPage = lazyPage(
  () => import('../features/auth/forgot-password-page'),
  'ForgotPasswordPage',
);
export const ResetPasswordPage = lazyPage(
  () => import('../features/auth/reset-password-page'),
  'ResetPasswordPage',
);
export const ActivatePage = lazyPage(() => import('../features/auth/activate-page'), 'ActivatePage');
export const ProfilePage = lazyPage(() => import('../features/profile/profile-page'), 'ProfilePage');
export const ChangePasswordPage = lazyPage(
  () => import('../features/profile/change-password-page'),
  'ChangePasswordPage',
);
export const BuilderPage = lazyPage(() => import('../features/builder/builder-page'), 'BuilderPage');
export const NotFoundPage = lazyPage(() => import('./not-found-page'), 'NotFoundPage');
export const ForbiddenPage = lazyPage(() => import('./forbidden-page'), 'ForbiddenPage');
export const LockedOutPage = lazyPage(() => import('./locked-out-page'), 'LockedOutPage');
export const MenuDisabledNotice = lazyPage(() => import('./menu-disabled-notice'), 'MenuDisabledNotice');
export const AppLayout = lazyPage(() => import('./shell/app-layout'), 'AppLayout');
export const PlaceholderPage = lazyPage<{ titleKey: string }, PlaceholderModule>(
  () => import('./placeholder-page'),
  'PlaceholderPage',
);

/** Every /admin/master/* entry: the generic page of the master resource the route table names. */
export const MasterRoutePage = lazyPage<{ masterKey: MasterKey }, MasterPageModule>(
  () => import('../features/masters/master-route-page'),
  'MasterRoutePage',
);

/**
 * Menu pages with a screen of their own, by the `page` name of the shared route table.
 * Later issues register their pages here; a route without one shows PlaceholderPage.
 */
export const MENU_PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  'unused-subscriptions': lazyPage(
    () => import('../features/reports/unused-subscriptions-page'),
    'UnusedSubscriptionsPage',
  ),
  'client-contracts': lazyPage(
    () => import('../features/reports/client-contracts-page'),
    'ClientContractsPage',
  ),
  'base-plan-types': lazyPage(() => import('../features/reports/plan-types-page'), 'PlanTypesPage'),
  'cost-summaries': lazyPage(() => import('../features/reports/summaries-page'), 'CostSummariesPage'),
  'usage-summaries': lazyPage(() => import('../features/reports/summaries-page'), 'UsageSummariesPage'),
  'overcharged-plans': lazyPage(() => import('../features/reports/overcharged-page'), 'OverchargedPage'),
  'top-users': lazyPage(() => import('../features/reports/top-users-page'), 'TopUsersPage'),
  'activity-log': lazyPage(() => import('../features/reports/activity-log-page'), 'ActivityLogPage'),
  downloads: lazyPage(() => import('../features/downloads/downloads-page'), 'DownloadsPage'),
  'consultant-billing': lazyPage(
    () => import('../features/consultant-billing/consultant-billing-page'),
    'ConsultantBillingPage',
  ),
  'invoice-upload': lazyPage(() => import('../features/invoices/invoice-upload-page'), 'InvoiceUploadPage'),
  'failed-invoice-download': lazyPage(
    () => import('../features/automation/failed-downloads-page'),
    'FailedDownloadsPage',
  ),
  portfolio: lazyPage(() => import('../features/portfolio/portfolio-page'), 'PortfolioPage'),
  'cost-and-usage': lazyPage(() => import('../features/dashboards/cost-usage-page'), 'CostUsagePage'),
  savings: lazyPage(() => import('../features/dashboards/savings-page'), 'SavingsPage'),
  alerts: lazyPage(() => import('../features/alerts/alerts-page'), 'AlertsPage'),
  'invoice-optimization': lazyPage(
    () => import('../features/optimization/optimization-page'),
    'OptimizationPage',
  ),
  'full-automation': lazyPage(
    () => import('../features/automation/full-automation-page'),
    'FullAutomationPage',
  ),
  'client-management': lazyPage(
    () => import('../features/clients/client-management-page'),
    'ClientManagementPage',
  ),
  'invoice-user-management': lazyPage(
    () => import('../features/clients/invoice-users-page'),
    'InvoiceUsersPage',
  ),
  'plan-details': lazyPage(() => import('../features/clients/plan-details-page'), 'PlanDetailsPage'),
  'client-detail': lazyPage(() => import('../features/clients/client-detail-page'), 'ClientDetailPage'),
  'invoice-detail': lazyPage(() => import('../features/invoices/invoice-detail-page'), 'InvoiceDetailPage'),
  'subscription-detail': lazyPage(
    () => import('../features/subscriptions/subscription-detail-page'),
    'SubscriptionDetailPage',
  ),
};
