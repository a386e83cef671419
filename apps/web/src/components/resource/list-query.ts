import type { MasterFilter, MasterResource } from '@kulu/shared';
import {
  initialPagedState,
  pagedParams,
  sortFromTable as sortOf,
  type PagedState,
  type SortSpec,
} from '../../lib/paging';

export type Filters = Record<string, string | number | boolean | undefined>;

/** What the list page asks for: paging, sorting, search and the declared filters. */
export interface ListState extends PagedState {
  filters: Filters;
}

export { PAGE_SIZES, clampPage } from '../../lib/paging';
export { fileNameFrom } from '../../lib/download';

/** A resource sorts by its declared columns; clearing a sort goes back to its default sort and order. */
export const sortSpecOf = (
  resource: Pick<MasterResource, 'sortable'> & { defaultSort?: string; defaultOrder?: 'asc' | 'desc' },
): SortSpec => ({
  sortable: resource.sortable,
  defaultSort: resource.defaultSort,
  defaultOrder: resource.defaultOrder ?? 'asc',
});

export const initialListState = (resource: Pick<MasterResource, 'sortable' | 'defaultSort'>): ListState => ({
  ...initialPagedState(sortSpecOf(resource)),
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
  const query: Query = pagedParams(sortSpecOf(resource), state, { paged: false });
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
export const sortFromTable = (
  resource: Pick<MasterResource, 'sortable' | 'defaultSort'>,
  field: unknown,
  order: 'ascend' | 'descend' | null | undefined,
): Pick<ListState, 'sort' | 'order'> => sortOf(sortSpecOf(resource), field, order);
