/**
 * The state of a server-paged, sorted and searched table, as pure functions: the PagedTable
 * component and the usePagedState hook are thin React wrappers around these.
 */

/** The page sizes every server-paged table offers. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
/** The longest search text sent to the API (its `q` limit). */
export const SEARCH_MAX = 100;

export type SortOrder = 'asc' | 'desc';

/** Page, page size, sort column and order, search text. */
export interface PagedState<S extends string = string> {
  page: number;
  pageSize: number;
  sort?: S;
  order: SortOrder;
  q: string;
}

/** What a table may be sorted by, and the order it falls back to when the user clears a sort. */
export interface SortSpec<S extends string = string> {
  sortable: readonly S[];
  defaultSort?: S;
  defaultOrder?: SortOrder;
}

/** No sorting at all (the table's columns get no sorter). */
export const NO_SORT: SortSpec<never> = { sortable: [] };

/** What the table itself changes: paging and sorting. */
export type PageChange<S extends string = string> = Pick<
  PagedState<S>,
  'page' | 'pageSize' | 'sort' | 'order'
>;

/** antd's sort order of a column. */
export type TableSortOrder = 'ascend' | 'descend' | null;

export const initialPagedState = <S extends string>(
  spec: SortSpec<S>,
  pageSize: number = DEFAULT_PAGE_SIZE,
): PagedState<S> => ({
  page: 1,
  pageSize,
  sort: spec.defaultSort,
  order: spec.defaultOrder ?? 'asc',
  q: '',
});

const isSortable = <S extends string>(spec: SortSpec<S>, key: unknown): key is S =>
  typeof key === 'string' && (spec.sortable as readonly string[]).includes(key);

/** antd Table's sorter answer → sort and order (cleared or unknown: back to the default sort). */
export function sortFromTable<S extends string>(
  spec: SortSpec<S>,
  field: unknown,
  order: TableSortOrder | undefined,
): Pick<PagedState<S>, 'sort' | 'order'> {
  const key = Array.isArray(field) ? field.join('.') : field;
  if (!order || !isSortable(spec, key)) return { sort: spec.defaultSort, order: spec.defaultOrder ?? 'asc' };
  return { sort: key, order: order === 'descend' ? 'desc' : 'asc' };
}

/** The sort order antd shows on a column. */
export const columnSortOrder = (state: Pick<PagedState, 'sort' | 'order'>, key: string): TableSortOrder =>
  state.sort === key ? (state.order === 'desc' ? 'descend' : 'ascend') : null;

/**
 * The next paging after the user pages, resizes or sorts: a new sort or page size starts again
 * on page 1 (the old page number means nothing any more).
 */
export function nextPaging<S extends string>(
  prev: PagedState<S>,
  pagination: { current?: number; pageSize?: number },
  sort: Pick<PagedState<S>, 'sort' | 'order'>,
): PageChange<S> {
  const pageSize = pagination.pageSize ?? prev.pageSize;
  const reset = sort.sort !== prev.sort || sort.order !== prev.order || pageSize !== prev.pageSize;
  return { ...sort, pageSize, page: reset ? 1 : (pagination.current ?? prev.page) };
}

/** A new search text starts on page 1; the same text changes nothing. */
export const withSearch = <T extends PagedState>(prev: T, q: string): T =>
  prev.q === q ? prev : { ...prev, q, page: 1 };

/** The paging, sort and search query of a list call (`q` trimmed and cut, sent only when set). */
export function pagedParams<S extends string>(
  spec: SortSpec<S>,
  state: PagedState<S>,
  { paged = true }: { paged?: boolean } = {},
): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  if (paged) {
    query.page = state.page;
    query.pageSize = state.pageSize;
  }
  if (state.sort !== undefined && isSortable(spec, state.sort)) {
    query.sort = state.sort;
    query.order = state.order;
  }
  const q = state.q.trim();
  if (q) query.q = q.slice(0, SEARCH_MAX);
  return query;
}

/** After a delete the last page may be gone: the page to show for `total` rows. */
export const clampPage = (page: number, pageSize: number, total: number): number =>
  Math.min(page, Math.max(1, Math.ceil(total / pageSize)));
