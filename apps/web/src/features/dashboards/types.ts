import type { CostUsage, CostUsageSubscriptionsQuery } from '@kulu/shared';

export type {
  CostUsage,
  CostUsageQuery,
  CostUsageSubscription,
  CostUsageSubscriptionList,
  CostUsageSubscriptionSort,
} from '@kulu/shared';
export type CostUsageMonthRow = CostUsage['months'][number];
export type CostUsageCategoryRow = CostUsage['byCategory'][number];
export type CostUsageUserRow = CostUsage['byUser']['items'][number];
/** The query of the subscriptions list as the web sends it (paging fields always set). */
export type CostUsageSubscriptionsParams = Partial<CostUsageSubscriptionsQuery> &
  Pick<CostUsageSubscriptionsQuery, 'page' | 'pageSize'>;
