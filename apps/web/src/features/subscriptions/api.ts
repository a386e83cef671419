import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Lang, SubscriptionDetail, SubscriptionDetailQuery } from '@kulu/shared';
import { api } from '../../lib/api';

export const SUBSCRIPTIONS_KEY = ['subscriptions'] as const;

/** One subscription; the period limits its cost by category. Texts come in the user's language. */
export const subscriptionQuery = (id: number, period: SubscriptionDetailQuery, lang: Lang) =>
  queryOptions({
    queryKey: [...SUBSCRIPTIONS_KEY, id, lang, period],
    queryFn: ({ signal }) =>
      api.get<SubscriptionDetail>(`/api/subscriptions/${id}`, { query: { ...period }, signal }),
    placeholderData: keepPreviousData,
  });
