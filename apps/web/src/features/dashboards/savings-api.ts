import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Lang, Savings, SavingsQuery } from '@kulu/shared';
import { api } from '../../lib/api';
import { DASHBOARDS_KEY } from './api';

/**
 * The Savings dashboard's figures for the filters; the previous answer stays on screen while
 * the next loads. Marks and re-optimizations change them: the optimization page invalidates
 * `['optimization']`, which this key starts with too.
 */
export const savingsQuery = (params: SavingsQuery, lang: Lang, enabled = true) =>
  queryOptions({
    queryKey: ['optimization', ...DASHBOARDS_KEY, 'savings', lang, params],
    queryFn: ({ signal }) => api.get<Savings>('/api/dashboard/savings', { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    enabled,
    staleTime: 30_000,
  });
