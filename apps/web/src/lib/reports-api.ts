import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CostSummaryList, UsageSummaryList } from '@kulu/shared';
import { api } from './api';
import { downloadFile } from './download';

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

/** A paged report's filters as its page sends them: the fields of its API query, all optional but the page. */
export type PagedParams<Q extends { page: number; pageSize: number }> = Partial<Q> &
  Pick<Q, 'page' | 'pageSize'>;

/**
 * A report's rows: GET /api/reports/<report>?<query> (the page shown is kept while the next one
 * loads). `qs` writes the query when a report sends a filter its own way.
 */
export const reportQuery = <T, P extends object>(
  report: string,
  params: P,
  enabled = true,
  qs: (params: P) => string = (p) => queryString({ ...(p as Record<string, unknown>) }),
) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, report, params],
    queryFn: ({ signal }) => api.get<T>(`/api/reports/${report}?${qs(params)}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

/**
 * Downloads a report's workbook of exactly what the filters show (the paging is left out) as
 * `fileName`; `qs` as for reportQuery.
 */
export function exportReport<P extends object>(
  report: string,
  params: P,
  fileName: string,
  qs: (filters: Partial<P>) => string = (f) => queryString({ ...(f as Record<string, unknown>) }),
): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params as P & { page?: number; pageSize?: number };
  const query = qs(filters as Partial<P>);
  return downloadFile(`/api/reports/${report}/export${query ? `?${query}` : ''}`, fileName);
}
