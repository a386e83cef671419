import type { MasterFilter, MasterResource } from '@kulu/shared';

/** What the list page asks for: paging, sorting, search and the declared filters. */
export interface ListState {
  page: number;
  pageSize: number;
  sort?: string;
  order: 'asc' | 'desc';
  q: string;
  filters: Record<string, string | number | boolean | undefined>;
}

export { PAGE_SIZES, clampPage } from '../../lib/paging';
export { fileNameFrom } from '../../lib/download';

export const initialListState = (resource: Pick<MasterResource, 'defaultSort'>): ListState => ({
  page: 1,
  pageSize: 20,
  sort: resource.defaultSort,
  order: 'asc',
  q: '',
  filters: {},
});

type Query = Record<string, string | number | undefined>;

const filterParam = (filter: MasterFilter | undefined, value: unknown): string | number | undefined => {
  if (value === undefined || value === null || value === '' || !filter) return undefined;
  if (filter.type === 'boolean') return value === true || value === 'true' ? 'true' : 'false';
  if (filter.type === 'id') {
    const n = Number(value);
    return Number.isInteger(n) && n > 0 ? n : undefined;
  }
  return filter.values.includes(String(value)) ? String(value) : undefined;
};

/** The query of the export and option calls: sort, search and filters, no paging. */
export function unpagedParams(
  resource: Pick<MasterResource, 'filters' | 'sortable'>,
  state: ListState,
): Query {
  const query: Query = {};
  if (state.sort && (resource.sortable as readonly string[]).includes(state.sort)) {
    query.sort = state.sort;
    query.order = state.order;
  }
  const q = state.q.trim();
  if (q) query.q = q.slice(0, 100);
  for (const [key, filter] of Object.entries(resource.filters)) {
    const v = filterParam(filter, state.filters[key]);
    if (v !== undefined) query[key] = v;
  }
  return query;
}

/** GET /api/masters/<path>?page&pageSize&sort&order&q&<filters>. */
export const listParams = (
  resource: Pick<MasterResource, 'filters' | 'sortable'>,
  state: ListState,
): Query => ({
  page: state.page,
  pageSize: state.pageSize,
  ...unpagedParams(resource, state),
});

/** antd Table's sorter answer → the list's sort and order (none: back to the default sort). */
export function sortFromTable(
  resource: Pick<MasterResource, 'sortable' | 'defaultSort'>,
  field: unknown,
  order: 'ascend' | 'descend' | null | undefined,
): Pick<ListState, 'sort' | 'order'> {
  const key = Array.isArray(field) ? field.join('.') : typeof field === 'string' ? field : undefined;
  if (!order || !key || !(resource.sortable as readonly string[]).includes(key)) {
    return { sort: resource.defaultSort, order: 'asc' };
  }
  return { sort: key, order: order === 'descend' ? 'desc' : 'asc' };
}
