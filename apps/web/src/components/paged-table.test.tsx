import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { ApiRequestError } from '../lib/api-client';
import { i18nReady } from '../lib/i18n';
import { initialPagedState, type SortSpec } from '../lib/paging';
import { PagedTable, type PagedColumn, type PagedQuery } from './paged-table';

interface Item {
  id: number;
  name: string;
  size: number;
}
const SORT: SortSpec<'name'> = { sortable: ['name'], defaultSort: 'name', defaultOrder: 'desc' };
const COLUMNS: PagedColumn<Item>[] = [
  { key: 'name', dataIndex: 'name', title: 'Name' },
  { key: 'size', dataIndex: 'size', title: 'Size' },
];

const query = (over: Partial<PagedQuery<Item>> = {}): PagedQuery<Item> => ({
  data: undefined,
  isLoading: false,
  isFetching: false,
  isPlaceholderData: false,
  isError: false,
  error: null,
  refetch: () => undefined,
  ...over,
});

const render = (q: PagedQuery<Item>, extra: { rowActions?: boolean; summary?: boolean } = {}) =>
  renderToStaticMarkup(
    <PagedTable<Item, 'name'>
      query={q}
      state={initialPagedState(SORT)}
      onPageChange={() => undefined}
      sort={SORT}
      columns={COLUMNS}
      emptyText="Nothing here yet"
      rowActions={extra.rowActions ? { render: (row) => <button>act {row.id}</button> } : undefined}
      summary={
        extra.summary
          ? () => (
              <tr>
                <td colSpan={2}>Sum of all 42</td>
              </tr>
            )
          : undefined
      }
      testId="t"
    />,
  );

beforeAll(() => i18nReady);

describe('PagedTable', () => {
  it('shows the summary row below the rows', () => {
    const items = [{ id: 1, name: 'Alpha', size: 3 }];
    expect(render(query({ data: { items, total: 42 } }), { summary: true })).toContain('Sum of all 42');
    expect(render(query({ data: { items, total: 42 } }))).not.toContain('Sum of all');
  });

  it('shows the rows, the range of the total and the row actions', () => {
    const html = render(
      query({
        data: {
          items: [
            { id: 1, name: 'Alpha', size: 3 },
            { id: 2, name: 'Beta', size: 5 },
          ],
          total: 42,
        },
      }),
      { rowActions: true },
    );
    expect(html).toContain('Alpha');
    expect(html).toContain('Beta');
    expect(html).toContain('1–20 of 42');
    expect(html).toContain('act 2');
    expect(html).toContain('Actions');
    expect(html).toContain('ant-pagination-options-quick-jumper');
  });

  it('marks the default sort on its column only', () => {
    const html = render(query({ data: { items: [{ id: 1, name: 'Alpha', size: 3 }], total: 1 } }));
    expect(html.match(/aria-sort="descending"/g)).toHaveLength(1);
    expect(html).not.toContain('aria-sort="ascending"');
  });

  it('shows the translated empty text when there are no rows', () => {
    const html = render(query({ data: { items: [], total: 0 } }));
    expect(html).toContain('Nothing here yet');
    expect(html).not.toContain('table-retry');
  });

  it('shows the error with a retry button instead of the empty text when the list fails', () => {
    const html = render(
      query({ isError: true, error: new ApiRequestError(500, 'internal', 'Boom', undefined) }),
    );
    expect(html).toContain('table-retry');
    expect(html).toContain('Retry');
    expect(html).not.toContain('Nothing here yet');
  });
});
