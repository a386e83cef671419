import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { helsinkiDay, type MasterList, type MasterOptionRow, type MasterResource } from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { masterUrl, masterUrlOf } from '../../lib/master-url';
import { listParams, unpagedParams, type ListState } from './list-query';

export type Row = Record<string, unknown> & { id: number };

const base = (resource: Pick<MasterResource, 'path'>) => masterUrl(resource);

/** Every masters query starts with this key: a write invalidates lists and choices alike. */
export const MASTERS_KEY = ['masters'] as const;

export const listQuery = (resource: MasterResource, state: ListState) =>
  queryOptions({
    queryKey: [...MASTERS_KEY, resource.path, 'list', listParams(resource, state)],
    queryFn: ({ signal }) =>
      api.get<MasterList<Row>>(base(resource), { query: listParams(resource, state), signal }),
    placeholderData: keepPreviousData,
  });

/** The choices of a `ref` field or filter: `[{id, name}]` from the declaration's optionsUrl. */
export const optionsQuery = (url: string, params: Record<string, string | number | undefined> = {}) =>
  queryOptions({
    queryKey: [...MASTERS_KEY, 'options', url, params],
    queryFn: ({ signal }) => api.get<MasterOptionRow[]>(url, { query: params, signal }),
    staleTime: 60_000,
  });

export const createRow = (resource: MasterResource, body: unknown) => api.post<Row>(base(resource), body);
export const updateRow = (resource: MasterResource, id: number, body: unknown) =>
  api.put<Row>(masterUrl(resource, id), body);
export const deleteRow = (resource: MasterResource, id: number) =>
  api.delete<{ id: number; code: string; message: string }>(masterUrl(resource, id));
/** Resources written by upload (help files): multipart POST. */
export const uploadRow = (resource: MasterResource, data: FormData) =>
  api.request<Row>(base(resource), { method: 'POST', formData: data });

// ---- cost elements ----------------------------------------------------------------------------

export interface BulkResult {
  updated: number;
  code: string;
  message: string;
}
export const approveCostElement = (id: number) => api.post<Row>(masterUrlOf('costElements', id, 'approve'));
export const categorizeCostElement = (id: number, costCategoryId: number) =>
  api.post<Row>(masterUrlOf('costElements', id, 'category'), { costCategoryId });
export const approveCostElements = (ids: number[]) =>
  api.post<BulkResult>(masterUrlOf('costElements', 'approve'), { ids });
export const categorizeCostElements = (ids: number[], costCategoryId: number) =>
  api.post<BulkResult>(masterUrlOf('costElements', 'categorize'), { ids, costCategoryId });

// ---- downloads ----------------------------------------------------------------------------------

export { downloadFile } from '../../lib/download';

/** The current list (search, filters, sort; every page) as .xlsx. */
export function exportList(resource: MasterResource, state: ListState): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(unpagedParams(resource, state)))
    if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  const date = helsinkiDay(new Date());
  return downloadFile(
    `${masterUrl(resource, 'export')}${qs ? `?${qs}` : ''}`,
    `${resource.path}-${date}.xlsx`,
  );
}

export const helpFileUrl = (id: number) => masterUrlOf('help', id, 'file');
