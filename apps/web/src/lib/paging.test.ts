import { describe, expect, it } from 'vitest';
import {
  clampPage,
  columnSortOrder,
  initialPagedState,
  nextPaging,
  NO_SORT,
  pagedParams,
  sortFromTable,
  withSearch,
  type SortSpec,
} from './paging';

type Sort = 'name' | 'createdAt';
const NEWEST_FIRST: SortSpec<Sort> = {
  sortable: ['name', 'createdAt'],
  defaultSort: 'createdAt',
  defaultOrder: 'desc',
};
const BY_NAME: SortSpec<Sort> = { sortable: ['name', 'createdAt'], defaultSort: 'name' };

describe('paged table state', () => {
  it('starts on the first page of 20 in the default sort', () => {
    expect(initialPagedState(NEWEST_FIRST)).toEqual({
      page: 1,
      pageSize: 20,
      sort: 'createdAt',
      order: 'desc',
      q: '',
    });
    expect(initialPagedState(NO_SORT, 50)).toEqual({
      page: 1,
      pageSize: 50,
      sort: undefined,
      order: 'asc',
      q: '',
    });
  });

  it('takes a sorted column and its direction from the table', () => {
    expect(sortFromTable(BY_NAME, 'createdAt', 'descend')).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(sortFromTable(BY_NAME, ['name'], 'ascend')).toEqual({ sort: 'name', order: 'asc' });
  });

  it('falls back to the default sort and order when the sort is cleared or not allowed', () => {
    expect(sortFromTable(NEWEST_FIRST, 'name', null)).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(sortFromTable(NEWEST_FIRST, 'password', 'ascend')).toEqual({ sort: 'createdAt', order: 'desc' });
    expect(sortFromTable(BY_NAME, undefined, 'descend')).toEqual({ sort: 'name', order: 'asc' });
    expect(sortFromTable(NO_SORT, 'name', 'ascend')).toEqual({ sort: undefined, order: 'asc' });
  });

  it('shows the sort order on the sorted column only', () => {
    const state = { sort: 'name', order: 'desc' as const };
    expect(columnSortOrder(state, 'name')).toBe('descend');
    expect(columnSortOrder({ ...state, order: 'asc' }, 'name')).toBe('ascend');
    expect(columnSortOrder(state, 'createdAt')).toBeNull();
  });

  it('moves to the page the user picks or types', () => {
    const prev = { ...initialPagedState(BY_NAME), page: 2 };
    expect(nextPaging(prev, { current: 7, pageSize: 20 }, { sort: 'name', order: 'asc' })).toEqual({
      page: 7,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
    });
  });

  it('goes back to page 1 on a new sort, order or page size', () => {
    const prev = { ...initialPagedState(BY_NAME), page: 5 };
    expect(nextPaging(prev, { current: 5, pageSize: 20 }, { sort: 'createdAt', order: 'asc' }).page).toBe(1);
    expect(nextPaging(prev, { current: 5, pageSize: 20 }, { sort: 'name', order: 'desc' }).page).toBe(1);
    const resized = nextPaging(prev, { current: 5, pageSize: 50 }, { sort: 'name', order: 'asc' });
    expect(resized).toMatchObject({ page: 1, pageSize: 50 });
    expect(nextPaging(prev, {}, { sort: 'name', order: 'asc' })).toMatchObject({ page: 5, pageSize: 20 });
  });

  it('starts a new search on page 1 and leaves the same search alone', () => {
    const prev = { ...initialPagedState(BY_NAME), page: 4, q: 'abc' };
    expect(withSearch(prev, 'abc')).toBe(prev);
    expect(withSearch(prev, 'abcd')).toEqual({ ...prev, q: 'abcd', page: 1 });
  });

  it('sends paging, an allowed sort and the trimmed search', () => {
    const state = { ...initialPagedState(BY_NAME), page: 3, q: '  5G  ' };
    expect(pagedParams(BY_NAME, state)).toEqual({
      page: 3,
      pageSize: 20,
      sort: 'name',
      order: 'asc',
      q: '5G',
    });
    expect(pagedParams(BY_NAME, state, { paged: false })).toEqual({ sort: 'name', order: 'asc', q: '5G' });
    expect(pagedParams(NO_SORT, { ...state, sort: 'name' as never })).toEqual({
      page: 3,
      pageSize: 20,
      q: '5G',
    });
    expect(pagedParams(BY_NAME, { ...state, q: 'x'.repeat(150) }).q).toHaveLength(100);
    expect(pagedParams(BY_NAME, { ...state, q: '   ' })).not.toHaveProperty('q');
  });

  it('moves back to the last page that still exists', () => {
    expect(clampPage(3, 20, 41)).toBe(3);
    expect(clampPage(3, 20, 40)).toBe(2);
    expect(clampPage(2, 20, 0)).toBe(1);
  });
});
