import { hashKey, QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../lib/api-client';
import { getSession } from '../lib/session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      // A 4xx answer will not change by asking again.
      retry: (count, err) => !(err instanceof ApiRequestError && err.status < 500) && count < 2,
      // Every query's key includes the operator the session is limited to (docs/decisions/0018):
      // choosing another in the header re-renders the open page, whose queries then load that
      // operator's answers, and one operator's answers are never shown for another.
      queryKeyHashFn: (key) => hashKey([{ operator: getSession()?.loggedInOperatorID ?? 'all' }, ...key]),
    },
  },
});
