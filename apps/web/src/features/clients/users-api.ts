import { queryOptions } from '@tanstack/react-query';
import type { ClientUserOptions, ClientUserSaved, ClientUserStatus } from '@kulu/shared';
import { api } from '../../lib/api';
import { CLIENTS_KEY } from './api';

/**
 * The API calls of a client's Sub-company management and Additional users sections (issue 11).
 * Every key starts with ['clients', <section>, clientId].
 */

// ---- sub-companies --------------------------------------------------------------------------------

export const subCompaniesKey = (clientId: number) => [...CLIENTS_KEY, 'subCompanies', clientId] as const;

/** Billing plans, the client's sub-companies and cost centers, grantable permissions. */
export const userOptionsKey = (clientId: number) => [...CLIENTS_KEY, 'userOptions', clientId] as const;

export const userOptionsQuery = (clientId: number) =>
  queryOptions({
    queryKey: userOptionsKey(clientId),
    queryFn: ({ signal }) =>
      api.get<ClientUserOptions>(`/api/clients/${clientId}/sub-companies/options`, { signal }),
  });

// ---- client users -----------------------------------------------------------------------------------

export const clientUsersKey = (clientId: number) => [...CLIENTS_KEY, 'users', clientId] as const;

export const setClientUserStatus = ({
  clientId,
  id,
  status,
}: {
  clientId: number;
  id: number;
  status: ClientUserStatus;
}) =>
  api.post<ClientUserSaved>(
    `/api/clients/${clientId}/users/${id}/${status === 'inactive' ? 'deactivate' : 'activate'}`,
    {},
  );
