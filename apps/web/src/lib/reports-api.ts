import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CostSummaryList, UsageSummaryList } from '@kulu/shared';
import { api } from './api';

/**
 * What the reports share with the other screens that read /api/reports (downloads, consultant
 * billing): the query key root, the query string, and the cost / usage summaries.
 */

/** Every report query's key starts with ['reports', <report>] (issue 12). */
export const REPORTS_KEY = ['reports'] as const;

/** Filters as a query string, without the empty ones. */
export const queryString = (params: Record<string, unknown>) =>
  new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();

/** Cost / Usage Summaries' filters. */
export interface SummaryParams {
  clientId?: number;
  from?: string;
  to?: string;
  subCompanyId?: number;
  groupBy: 'organization' | 'costCenter';
}

export type SummaryKind = 'cost-summaries' | 'usage-summaries';

export const summaryQuery = <K extends SummaryKind>(kind: K, params: SummaryParams, enabled: boolean) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, kind, params],
    queryFn: ({ signal }) =>
      api.get<K extends 'cost-summaries' ? CostSummaryList : UsageSummaryList>(
        `/api/reports/${kind}?${queryString({ ...params })}`,
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled,
  });
