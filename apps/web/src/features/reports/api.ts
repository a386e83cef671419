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
import {
  exportReport,
  queryString,
  reportQuery,
  REPORTS_KEY,
  type PagedParams,
  type SummaryKind,
  type SummaryParams,
} from '../../lib/reports-api';

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
export function exportActivityLog({ sort: _o, order: _d, ...params }: ActivityLogParams): Promise<void> {
  return exportReport('activity-log', params, `activity-log-${helsinkiDay(new Date())}.xlsx`);
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
  reportQuery<TopUsersList, TopUsersParams>('top-users', params, enabled, topUsersQueryString);

export function exportTopUsers(params: TopUsersParams): Promise<void> {
  return exportReport('top-users', params, 'top-users.xlsx', topUsersQueryString);
}

/** Unused Subscriptions' filters. */
export type UnusedParams = PagedParams<UnusedSubscriptionsQuery>;

export const unusedSubscriptionsQuery = (params: UnusedParams, enabled: boolean) =>
  reportQuery<UnusedSubscriptionsList, UnusedParams>('unused-subscriptions', params, enabled);

export function exportUnusedSubscriptions(params: UnusedParams): Promise<void> {
  return exportReport('unused-subscriptions', params, 'unused-subscriptions.xlsx');
}

export type ClientContractsParams = Partial<ClientContractsQuery>;

export const clientContractsQuery = (params: ClientContractsParams) =>
  reportQuery<ClientContractsList, ClientContractsParams>('client-contracts', params);

export function exportClientContracts(params: ClientContractsParams): Promise<void> {
  return exportReport('client-contracts', params, `client-contracts-${helsinkiDay(new Date())}.xlsx`);
}

/** Base Plan Types' filters. */
export interface PlanTypesParams {
  clientId?: number;
  from?: string;
  to?: string;
  subCompanyId?: number;
}

export const planTypesQuery = (params: PlanTypesParams, enabled: boolean) =>
  reportQuery<PlanTypesList, PlanTypesParams>('base-plan-types', params, enabled);

export function exportPlanTypes(params: PlanTypesParams): Promise<void> {
  return exportReport('base-plan-types', params, 'base-plan-types.xlsx');
}

export function exportSummary(kind: SummaryKind, params: SummaryParams): Promise<void> {
  const qs = queryString({ ...params });
  return downloadFile(`/api/reports/${kind}/export${qs ? `?${qs}` : ''}`, `${kind}.xlsx`);
}

/** Overcharged Plans' filters. */
export type OverchargedParams = PagedParams<OverchargedQuery>;

export const overchargedQuery = (params: OverchargedParams, enabled: boolean) =>
  reportQuery<OverchargedList, OverchargedParams>('overcharged-plans', params, enabled);

export function exportOvercharged(params: OverchargedParams): Promise<void> {
  return exportReport('overcharged-plans', params, 'overcharged-plans.xlsx');
}
