import { useCallback, useEffect, useState } from 'react';
import { initialPagedState, withSearch, type PageChange, type PagedState, type SortSpec } from './paging';

/** The part of a TanStack query a PagedTable reads (a page of rows and the total). */
export interface PagedQuery<T> {
  data?: { items: T[]; total: number };
  isLoading: boolean;
  isFetching: boolean;
  isPlaceholderData: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}

/** How long the search waits after the last key press. */
export const SEARCH_DELAY_MS = 300;

/**
 * The page/pageSize/sort/order/q state of a PagedTable, kept in component state (a new page
 * starts on the first page), plus any extra state of the list (e.g. a master's filters).
 * `search` is what the search box shows; it reaches `state.q` after a short pause, or at once
 * through `submitSearch`.
 */
export function usePagedState<S extends string, X extends object = object>(
  spec: SortSpec<S>,
  extra?: X,
  pageSize?: number,
) {
  const [state, setState] = useState<PagedState<S> & X>(() => ({
    ...initialPagedState(spec, pageSize),
    ...(extra as X),
  }));
  const [search, setSearchText] = useState(state.q);

  useEffect(() => {
    const timer = setTimeout(() => setState((s) => withSearch(s, search)), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const onPageChange = useCallback((change: PageChange<S>) => setState((s) => ({ ...s, ...change })), []);
  const submitSearch = useCallback((q: string) => {
    setSearchText(q);
    setState((s) => withSearch(s, q));
  }, []);
  /** Changes the extra state (filters); the list starts again on page 1. */
  const patch = useCallback((change: Partial<X>) => setState((s) => ({ ...s, ...change, page: 1 })), []);

  /** The page, size, sort, order and search (only when set) a list call sends. */
  const paging = {
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    order: state.order,
    q: state.q || undefined,
  };
  /** What a PagedTable of this state takes besides its columns: the rows' query, paging and sort. */
  const tableOf = <T>(query: PagedQuery<T>) => ({ query, state, onPageChange, sort: spec });
  /** What the list's SearchBox takes besides its placeholder and width. */
  const searchBox = { value: search, onChange: setSearchText, onSearch: submitSearch };

  return {
    state,
    setState,
    onPageChange,
    search,
    setSearch: setSearchText,
    submitSearch,
    patch,
    paging,
    tableOf,
    searchBox,
  };
}
