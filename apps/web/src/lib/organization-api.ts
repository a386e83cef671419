// The caller's organization as the API scopes it: client and sub-company choices, used by every
// feature that asks a provider user for a client or narrows by sub-company.
import { queryOptions } from '@tanstack/react-query';
import type { MasterOptionRow } from '@kulu/shared';
import { api } from './api';

/** The client companies a provider user (admin or consultant) may work for (scoped by the API). */
export const clientOptionsQuery = () =>
  queryOptions({
    queryKey: ['clients', 'options'],
    queryFn: ({ signal }) => api.get<MasterOptionRow[]>('/api/clients/options', { signal }),
    staleTime: 60_000,
  });

/** The sub-companies the caller may see (scoped by the API), each with its client. */
export const subCompanyOptionsQuery = () =>
  queryOptions({
    queryKey: ['sub-companies'],
    queryFn: ({ signal }) =>
      api.get<Array<{ id: number; name: string; clientId: number }>>('/api/sub-companies', { signal }),
    staleTime: 60_000,
  });
