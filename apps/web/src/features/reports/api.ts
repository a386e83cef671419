import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { helsinkiDay } from '@kulu/shared';
import type {
  OverchargedQuery,
  UnusedSubscriptionsQuery,
  ActivityLogList,
  ActivityLogOptions,
  ActivityLogQuery,
  ClientContractsList,
  ClientContractsQuery,
  OverchargedList,
  PlanTypesList,
  TopUsersList,
  UnusedSubscriptionsList,
} from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { queryString, REPORTS_KEY, type SummaryKind, type SummaryParams } from '../../lib/reports-api';

/** The reports' API calls (issue 12). */
export type ActivityLogParams = Partial<ActivityLogQuery>;

export const activityLogQuery = (params: ActivityLogParams) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'activity-log', params],
    queryFn: ({ signal }) =>
      api.get<ActivityLogList>('/api/reports/activity-log', {
        query: params as Record<string, string | number | undefined>,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const activityLogOptionsQuery = () =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'activity-log', 'options'],
    queryFn: ({ signal }) => api.get<ActivityLogOptions>('/api/reports/activity-log/options', { signal }),
  });

/** The workbook of exactly the entries the filters show. */
export function exportActivityLog(params: ActivityLogParams): Promise<void> {
  const { page: _p, pageSize: _s, sort: _o, order: _d, ...filters } = params;
  const qs = queryString(filters);
  const date = helsinkiDay(new Date());
  return downloadFile(`/api/reports/activity-log/export${qs ? `?${qs}` : ''}`, `activity-log-${date}.xlsx`);
}

/** Top Users' filters as the API takes them (`optimizableOnly` as `true` / `false`). */
export interface TopUsersParams {
  clientId?: number;
  from?: string;
  to?: string;
  subCompanyId?: number;
  optimizableOnly?: boolean;
  q?: string;
  page: number;
  pageSize: number;
}

const topUsersQueryString = ({ optimizableOnly, ...rest }: Partial<TopUsersParams>) =>
  queryString({ ...rest, optimizableOnly: optimizableOnly ? 'true' : undefined });

export const topUsersQuery = (params: TopUsersParams, enabled: boolean) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'top-users', params],
    queryFn: ({ signal }) =>
      api.get<TopUsersList>(`/api/reports/top-users?${topUsersQueryString(params)}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function exportTopUsers(params: TopUsersParams): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = topUsersQueryString(filters);
  return downloadFile(`/api/reports/top-users/export${qs ? `?${qs}` : ''}`, 'top-users.xlsx');
}

/** Unused Subscriptions' filters. */
export interface UnusedParams {
  sort?: UnusedSubscriptionsQuery['sort'];
  order?: 'asc' | 'desc';
  clientId?: number;
  subCompanyId?: number;
  months?: number;
  q?: string;
  page: number;
  pageSize: number;
}

export const unusedSubscriptionsQuery = (params: UnusedParams, enabled: boolean) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'unused-subscriptions', params],
    queryFn: ({ signal }) =>
      api.get<UnusedSubscriptionsList>(`/api/reports/unused-subscriptions?${queryString({ ...params })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function exportUnusedSubscriptions(params: UnusedParams): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = queryString({ ...filters });
  return downloadFile(
    `/api/reports/unused-subscriptions/export${qs ? `?${qs}` : ''}`,
    'unused-subscriptions.xlsx',
  );
}

export type ClientContractsParams = Partial<ClientContractsQuery>;

export const clientContractsQuery = (params: ClientContractsParams) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'client-contracts', params],
    queryFn: ({ signal }) =>
      api.get<ClientContractsList>(`/api/reports/client-contracts?${queryString({ ...params })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export function exportClientContracts(params: ClientContractsParams): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = queryString({ ...filters });
  const date = helsinkiDay(new Date());
  return downloadFile(
    `/api/reports/client-contracts/export${qs ? `?${qs}` : ''}`,
    `client-contracts-${date}.xlsx`,
  );
}

/** Base Plan Types' filters. */
export interface PlanTypesParams {
  clientId?: number;
  from?: string;
  to?: string;
  subCompanyId?: number;
}

export const planTypesQuery = (params: PlanTypesParams, enabled: boolean) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'base-plan-types', params],
    queryFn: ({ signal }) =>
      api.get<PlanTypesList>(`/api/reports/base-plan-types?${queryString({ ...params })}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function exportPlanTypes(params: PlanTypesParams): Promise<void> {
  const qs = queryString({ ...params });
  return downloadFile(`/api/reports/base-plan-types/export${qs ? `?${qs}` : ''}`, 'base-plan-types.xlsx');
}

export function exportSummary(kind: SummaryKind, params: SummaryParams): Promise<void> {
  const qs = queryString({ ...params });
  return downloadFile(`/api/reports/${kind}/export${qs ? `?${qs}` : ''}`, `${kind}.xlsx`);
}

/** Overcharged Plans' filters. */
export interface OverchargedParams {
  sort?: OverchargedQuery['sort'];
  order?: 'asc' | 'desc';
  clientId?: number;
  from?: string;
  to?: string;
  subCompanyId?: number;
  q?: string;
  page: number;
  pageSize: number;
}

export const overchargedQuery = (params: OverchargedParams, enabled: boolean) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'overcharged-plans', params],
    queryFn: ({ signal }) =>
      api.get<OverchargedList>(`/api/reports/overcharged-plans?${queryString({ ...params })}`, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });

export function exportOvercharged(params: OverchargedParams): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = queryString({ ...filters });
  return downloadFile(`/api/reports/overcharged-plans/export${qs ? `?${qs}` : ''}`, 'overcharged-plans.xlsx');
}
