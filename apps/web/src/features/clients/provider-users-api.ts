import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ProviderUserInput,
  ProviderUserList,
  ProviderUserListQuery,
  ProviderUserOptions,
  ProviderUserSaved,
  ProviderUserStatus,
} from '@kulu/shared';
import { api } from '../../lib/api';

/** The provider's own admins and consultants (issue 11; decisions/0012). */
export const PROVIDER_USERS_KEY = ['provider-users'] as const;

export const providerUsersQuery = (params: Partial<ProviderUserListQuery>) =>
  queryOptions({
    queryKey: [...PROVIDER_USERS_KEY, 'list', params],
    queryFn: ({ signal }) =>
      api.get<ProviderUserList>('/api/provider-users', {
        query: params as Record<string, string | number | undefined>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const providerUserOptionsQuery = () =>
  queryOptions({
    queryKey: [...PROVIDER_USERS_KEY, 'options'],
    queryFn: ({ signal }) => api.get<ProviderUserOptions>('/api/provider-users/options', { signal }),
  });

export const saveProviderUser = ({ id, body }: { id?: number; body: ProviderUserInput }) =>
  id == null
    ? api.post<ProviderUserSaved>('/api/provider-users', body)
    : api.put<ProviderUserSaved>(`/api/provider-users/${id}`, body);

export const setProviderUserStatus = ({ id, status }: { id: number; status: ProviderUserStatus }) =>
  api.post<ProviderUserSaved>(
    `/api/provider-users/${id}/${status === 'inactive' ? 'deactivate' : 'activate'}`,
    {},
  );
