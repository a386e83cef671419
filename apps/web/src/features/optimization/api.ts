import { queryOptions } from '@tanstack/react-query';
import { helsinkiDay } from '@kulu/shared';
import type {
  Lang,
  MarkBody,
  OptimizationList,
  OptimizationListQuery,
  OptimizationRun,
  OptimizationSettings,
  OptimizationTab,
} from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { shownQuery } from '../../lib/shown-query';

export const OPTIMIZATION_KEY = ['optimization'] as const;

/** How often the list asks again while a re-optimization is queued or running. */
export const RUN_POLL_MS = 3000;

/** The list's filters as the page keeps them (the API's query without defaults). */
export type OptimizationParams = Partial<OptimizationListQuery> & { tab: OptimizationTab };

/** Whether a run is still to finish (the page polls until it has). */
export const isRunPending = (run: OptimizationRun | null | undefined): boolean =>
  run?.status === 'queued' || run?.status === 'running';

/** The query string of the list and the export: empty filters are left out. */
export function optimizationQuery(params: OptimizationParams): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== null && v !== '') out[k] = typeof v === 'number' ? v : String(v);
  return out;
}

/**
 * One page of findings with the tab counts, totals and the latest run. The reasons come in the
 * user's language (a language switch asks again); while a run is pending the list polls.
 */
export const optimizationListQuery = (params: OptimizationParams, lang: Lang, enabled = true) =>
  shownQuery<OptimizationList>(
    [...OPTIMIZATION_KEY, 'list', lang, params],
    '/api/optimization/subscriptions',
    optimizationQuery(params),
    { enabled, refetchInterval: (q) => (isRunPending(q.state.data?.lastRun) ? RUN_POLL_MS : false) },
  );

/** Every matching row (no paging) as .xlsx, with the list's filters and sort. */
export function exportOptimization(params: OptimizationParams): Promise<void> {
  const { page: _page, pageSize: _pageSize, ...filters } = params;
  const qs = new URLSearchParams(
    Object.entries(optimizationQuery(filters)).map(([k, v]) => [k, String(v)]),
  ).toString();
  const date = helsinkiDay(new Date());
  return downloadFile(
    `/api/optimization/subscriptions/export${qs ? `?${qs}` : ''}`,
    `optimization-${params.tab}-${date}.xlsx`,
  );
}

export const markSubscriptions = (body: MarkBody) =>
  api.post<{ marked: number; alreadyMarked: number }>('/api/optimization/mark', body);

export const unmarkSubscriptions = (body: MarkBody) =>
  api.post<{ unmarked: number; notMarked: number }>('/api/optimization/unmark', body);

export const reoptimize = (clientId: number | undefined) =>
  api.post<{ runId: number; jobId: string | null }>('/api/optimization/reoptimize', { clientId });

const clientQuery = (clientId: number | undefined) => (clientId === undefined ? {} : { clientId });

export const optimizationSettingsQuery = (clientId: number | undefined, enabled = true) =>
  queryOptions({
    queryKey: [...OPTIMIZATION_KEY, 'settings', clientId ?? null],
    queryFn: ({ signal }) =>
      api.get<OptimizationSettings>('/api/optimization/settings', { query: clientQuery(clientId), signal }),
    enabled,
  });

/** The client travels in the body (the API's settings body). */
export const saveOptimizationSettings = (clientId: number | undefined, settings: OptimizationSettings) =>
  api.put<OptimizationSettings>('/api/optimization/settings', { ...settings, ...clientQuery(clientId) });
