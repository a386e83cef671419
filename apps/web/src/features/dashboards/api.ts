import type { CostUsageCostElement, Lang } from '@kulu/shared';
import type {
  CostUsage,
  CostUsageQuery,
  CostUsageSubscriptionList,
  CostUsageSubscriptionsParams,
} from './types';
import { shownQuery } from '../../lib/shown-query';

export const DASHBOARDS_KEY = ['dashboards'] as const;

/**
 * The Cost and Usage figures for the filters; the previous answer stays on screen while the next
 * loads. The category names come in the user's language: a language switch asks again.
 */
/** The filters as query parameters (`optimizableOnly` as `true` / `false`). */
const asQuery = ({ optimizableOnly, ...rest }: CostUsageQuery) => ({
  ...rest,
  optimizableOnly: optimizableOnly === undefined ? undefined : String(optimizableOnly),
});

export const costUsageQuery = (params: CostUsageQuery, lang: Lang, enabled = true) =>
  shownQuery<CostUsage>(
    [...DASHBOARDS_KEY, 'cost-usage', lang, params],
    '/api/dashboard/cost-usage',
    asQuery(params),
    { enabled, staleTime: 30_000 },
  );

/** The cost elements with cost under the other filters: the cost-element filter's choices. */
export const costElementChoicesQuery = (params: CostUsageQuery, enabled = true) =>
  shownQuery<CostUsageCostElement[]>(
    [...DASHBOARDS_KEY, 'cost-elements', { ...params, costElementId: undefined }],
    '/api/dashboard/cost-usage/cost-elements',
    asQuery({ ...params, costElementId: undefined }),
    { enabled, staleTime: 30_000 },
  );

/** The subscriptions behind the figures (show all, drill-down): one page for the filters. */
export const costUsageSubscriptionsQuery = (params: CostUsageSubscriptionsParams, enabled = true) =>
  shownQuery<CostUsageSubscriptionList>(
    [...DASHBOARDS_KEY, 'cost-usage-subscriptions', params],
    '/api/dashboard/cost-usage/subscriptions',
    asQuery(params),
    { enabled, staleTime: 30_000 },
  );
