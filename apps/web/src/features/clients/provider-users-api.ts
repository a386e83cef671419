import { queryOptions } from '@tanstack/react-query';
import { type ProviderUserOptions, type ProviderUserSaved, type ProviderUserStatus } from '@kulu/shared';
import { api } from '../../lib/api';

/** The provider's own admins and consultants (issue 11; decisions/0012). */
export const PROVIDER_USERS_KEY = ['provider-users'] as const;

export const providerUserOptionsQuery = () =>
  queryOptions({
    queryKey: [...PROVIDER_USERS_KEY, 'options'],
    queryFn: ({ signal }) => api.get<ProviderUserOptions>('/api/provider-users/options', { signal }),
  });

export const setProviderUserStatus = ({ id, status }: { id: number; status: ProviderUserStatus }) =>
  api.post<ProviderUserSaved>(
    `/api/provider-users/${id}/${status === 'inactive' ? 'deactivate' : 'activate'}`,
    {},
  );
