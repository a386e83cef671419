import { keepPreviousData, queryOptions, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { api } from './api';

/** The query string of a GET (undefined values are left out). */
type Query = Record<string, string | number | undefined>;

/**
 * What a screen shows for its filters (a list's page, a dashboard's figures): GET `url` with
 * `query` under `queryKey`, the answer on screen kept while the next one loads (a new page, a new
 * filter). `options`: what the screen adds (enabled, staleTime, a poll while something runs).
 */
export const shownQuery = <T>(
  queryKey: QueryKey,
  url: string,
  query: Query,
  options: Pick<UseQueryOptions<T>, 'enabled' | 'staleTime' | 'refetchInterval'> = {},
) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => api.get<T>(url, { query, signal }),
    placeholderData: keepPreviousData,
    ...options,
  });
