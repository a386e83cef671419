import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  AssignedCompanies,
  Client,
  ClientCreate,
  ClientKind,
  ClientList,
  ClientListQuery,
  ClientSaved,
  ClientUpdate,
  OperatorOption,
} from '@kulu/shared';
import { api } from '../../lib/api';

export const CLIENTS_KEY = ['clients'] as const;

/** The list's request: the tab, paging, sort, search and filters (unset ones left out). */
export type ClientListParams = Omit<ClientListQuery, 'tab'> & { tab: ClientListQuery['tab'] | 'interested' };

/** Client Management's tabs, or Interested Clients (sign-ups not converted yet). */
export const clientListQuery = ({ tab, ...params }: ClientListParams) =>
  queryOptions({
    queryKey: [...CLIENTS_KEY, 'list', tab, params],
    queryFn: ({ signal }) =>
      tab === 'interested'
        ? api.get<ClientList>('/api/clients/interested', {
            query: {
              page: params.page,
              pageSize: params.pageSize,
              sort: params.sort,
              order: params.order,
              q: params.q,
            },
            signal,
          })
        : api.get<ClientList>('/api/clients', { query: { tab, ...params }, signal }),
    placeholderData: keepPreviousData,
  });

/** Interested Clients: convert to a lead, company or consultant (activates the account and mails). */
export const convertClient = ({ id, to }: { id: number; to: ClientKind }) =>
  api.post<ClientSaved>(`/api/clients/${id}/convert`, { to });

/** One client's profile (spec §3 Client); the portal password is never answered. */
export const clientQuery = (id: number) =>
  queryOptions({
    queryKey: [...CLIENTS_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get<Client>(`/api/clients/${id}`, { signal }),
  });

/** Add Customer: the client, its first user and the activation mail. */
export const createClient = (body: ClientCreate) => api.post<ClientSaved>('/api/clients', body);

/** The whole profile (every field; a blank portal password keeps the stored one). */
export const updateClient = ({ id, body }: { id: number; body: ClientUpdate }) =>
  api.put<ClientSaved>(`/api/clients/${id}`, body);

/** Operators for the profile's choice (the same list the login page offers). */
export const operatorOptionsQuery = () =>
  queryOptions({
    queryKey: ['operators', 'public'],
    queryFn: ({ signal }) => api.get<OperatorOption[]>('/api/operators/public', { signal }),
    staleTime: 5 * 60_000,
  });

/** A consultant-type client's assigned companies (provider admin only). */
export const assignedCompaniesQuery = (clientId: number) =>
  queryOptions({
    queryKey: [...CLIENTS_KEY, 'assigned', clientId],
    queryFn: ({ signal }) =>
      api.get<AssignedCompanies>(`/api/clients/${clientId}/assigned-companies`, { signal }),
  });

export const saveAssignedCompanies = ({ clientId, clientIds }: { clientId: number; clientIds: number[] }) =>
  api.put<AssignedCompanies & { code: string; message: string }>(
    `/api/clients/${clientId}/assigned-companies`,
    { clientIds },
  );

/** Companies that can be assigned to a consultant (the company tab), searched by the API. */
export const companyChoicesQuery = (q: string) =>
  queryOptions({
    queryKey: [...CLIENTS_KEY, 'list', 'company', 'choices', q],
    queryFn: ({ signal }) =>
      api.get<ClientList>('/api/clients', {
        query: {
          tab: 'company',
          page: 1,
          pageSize: 50,
          sort: 'companyName',
          order: 'asc',
          q: q || undefined,
        },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
