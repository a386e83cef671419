import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { helsinkiDay, type MasterOptionRow, type MasterResource } from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { listParams, unpagedParams, type ListState } from './list-query';

/**
 * The calls of a declared resource, wherever the API serves it: `base` is its list URL
 * (`/api/masters/operators`, `/api/clients/7/payments`); rows are `<base>/<id>`.
 */
export type Row = Record<string, unknown> & { id: number };

/** What a write answers: the entity, or `{ [savedAs]: entity, code, message }`. */
export interface WriteAnswer {
  id?: number;
  code?: string;
  message?: string;
}

/** The choices of `ref` fields and filters: every write of a master invalidates them (`['masters']`). */
export const OPTIONS_KEY = ['masters', 'options'] as const;

const rowUrl = (base: string, id: number | string) => `${base}/${encodeURIComponent(String(id))}`;

export type ResourceDecl = Pick<MasterResource, 'filters' | 'sortable' | 'path'> & {
  defaultOrder?: 'asc' | 'desc';
};

export const listQuery = <L>(
  resource: ResourceDecl,
  base: string,
  queryKey: readonly unknown[],
  state: ListState,
  fixed: Record<string, number | string | undefined> = {},
) =>
  queryOptions({
    queryKey: [...queryKey, 'list', { ...fixed, ...listParams(resource, state) }],
    queryFn: ({ signal }) =>
      api.get<L>(base, { query: { ...fixed, ...listParams(resource, state) }, signal }),
    placeholderData: keepPreviousData,
  });

/** The choices of a `ref` field or filter: `[{id, name}]` from the declaration's optionsUrl. */
export const optionsQuery = (url: string, params: Record<string, string | number | undefined> = {}) =>
  queryOptions({
    queryKey: [...OPTIONS_KEY, url, params],
    queryFn: ({ signal }) => api.get<MasterOptionRow[]>(url, { query: params, signal }),
    staleTime: 60_000,
  });

export const createRow = (base: string, body: unknown) => api.post<WriteAnswer>(base, body);
export const updateRow = (base: string, id: number, body: unknown) =>
  api.put<WriteAnswer>(rowUrl(base, id), body);
export const deleteRow = (base: string, id: number) => api.delete<WriteAnswer>(rowUrl(base, id));
/** Resources written by upload (help files): multipart POST. */
export const uploadRow = (base: string, data: FormData) =>
  api.request<WriteAnswer>(base, { method: 'POST', formData: data });

/** The current list (search, filters, sort; every page) as .xlsx, from `<base>/export`. */
export function exportList(
  resource: ResourceDecl,
  base: string,
  state: ListState,
  fixed: Record<string, number | string | undefined> = {},
): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...fixed, ...unpagedParams(resource, state) }))
    if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  const date = helsinkiDay(new Date());
  return downloadFile(`${base}/export${qs ? `?${qs}` : ''}`, `${resource.path}-${date}.xlsx`);
}
