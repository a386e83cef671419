import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  FetchRun,
  FullAutomationRow,
  MasterOptionRow,
  PortalCredentialsInput,
  PortalCredentialsView,
} from '@kulu/shared';
import { api } from '../../lib/api';
import { masterUrlOf } from '../../lib/master-url';

export const AUTOMATION_KEY = ['automation'] as const;
const POLL_MS = 3000;

interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

export const failedDownloadsQuery = (page: number, pageSize: number) =>
  queryOptions({
    queryKey: [...AUTOMATION_KEY, 'failed', { page, pageSize }],
    queryFn: ({ signal }) =>
      api.get<Paged<FetchRun>>('/api/automation/failed-downloads', { query: { page, pageSize }, signal }),
    placeholderData: keepPreviousData,
  });

export const fullAutomationQuery = () =>
  queryOptions({
    queryKey: [...AUTOMATION_KEY, 'full'],
    queryFn: ({ signal }) => api.get<FullAutomationRow[]>('/api/automation/full-automation', { signal }),
    // A run in progress ends in the background.
    refetchInterval: (q) => (q.state.data?.some((r) => r.lastResult === 'running') ? POLL_MS : false),
  });

export const credentialsQuery = (clientId: number) =>
  queryOptions({
    queryKey: [...AUTOMATION_KEY, 'credentials', clientId],
    queryFn: ({ signal }) =>
      api.get<PortalCredentialsView[]>(`/api/automation/clients/${clientId}/credentials`, { signal }),
  });

const OPERATOR_OPTIONS_URL = masterUrlOf('operators', 'options');

export const operatorOptionsQuery = () =>
  queryOptions({
    queryKey: ['masters', 'options', OPERATOR_OPTIONS_URL, {}],
    queryFn: ({ signal }) => api.get<MasterOptionRow[]>(OPERATOR_OPTIONS_URL, { signal }),
    staleTime: 60_000,
  });

type Ok = { message: string };
const client = (id: number) => `/api/automation/clients/${id}`;

export const retryFailedDownload = (id: number) =>
  api.post<Ok>(`/api/automation/failed-downloads/${id}/retry`);
export const runNow = (clientId: number) => api.post<Ok & { jobs: number }>(`${client(clientId)}/run`, {});
export const saveCredentials = (clientId: number, body: PortalCredentialsInput) =>
  api.put<PortalCredentialsView[]>(`${client(clientId)}/credentials`, body);
export const deleteCredentials = (clientId: number, operatorId: number) =>
  api.delete<Ok>(`${client(clientId)}/credentials/${operatorId}`);
export const setUploadMethod = (clientId: number, invoiceUploadMethod: 'manual' | 'automation') =>
  api.put<Ok>(`${client(clientId)}/method`, { invoiceUploadMethod });
