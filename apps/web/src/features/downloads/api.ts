import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ReportExport, ReportExportList, ReportExportRequest } from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';

/** The report archive's API calls (issue 12). */
export const DOWNLOADS_KEY = ['report-exports'] as const;

/** How often the list is read again while an export is being made. */
export const DOWNLOADS_POLL_MS = 2000;

export const downloadsQuery = (params: { page: number; pageSize: number }) =>
  queryOptions({
    queryKey: [...DOWNLOADS_KEY, params],
    queryFn: ({ signal }) => api.get<ReportExportList>('/api/report-exports', { query: params, signal }),
    placeholderData: keepPreviousData,
    // Scheduled exports turn Ready or Failed on their own: follow them until none is left.
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.status === 'scheduled') ? DOWNLOADS_POLL_MS : false,
  });

export const scheduleExport = (body: ReportExportRequest) =>
  api.post<ReportExport>('/api/report-exports', body);

export const deleteExport = (id: number) => api.delete<{ message: string }>(`/api/report-exports/${id}`);

export const downloadExport = (row: ReportExport) =>
  downloadFile(`/api/report-exports/${row.id}/file`, row.fileName);
