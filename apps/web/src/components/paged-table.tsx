import { useEffect, useMemo, type ReactNode } from 'react';
import { Button, Card, Empty, Table } from 'antd';
import type { TableColumnType, TablePaginationConfig, TableProps } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorText } from '../lib/form-rules';
import {
  clampPage,
  columnSortOrder,
  nextPaging,
  NO_SORT,
  PAGE_SIZES,
  sortFromTable,
  type PageChange,
  type PagedState,
  type SortSpec,
} from '../lib/paging';
import type { PagedQuery } from '../lib/use-paged-state';

export type { PagedQuery };

/** A column of a PagedTable: sorting comes from the table's SortSpec, by the column's key. */
export type PagedColumn<T> = Omit<TableColumnType<T>, 'key' | 'sorter' | 'sortOrder'> & { key: string };

export interface RowActions<T> {
  render: (row: T) => ReactNode;
  width?: number;
  /** Stays in view on the right when the table scrolls sideways. */
  fixed?: boolean;
}

export interface PagedTableProps<T extends object, S extends string> {
  query: PagedQuery<T>;
  state: PagedState<S>;
  onPageChange: (change: PageChange<S>) => void;
  columns: readonly PagedColumn<T>[];
  /** What the columns may be sorted by; none: no sorting. */
  sort?: SortSpec<S>;
  /** Translated text when there are no rows. */
  emptyText: ReactNode;
  /** The card's title. */
  title?: ReactNode;
  /** Search, filters, bulk actions: above the table, inside the card. */
  toolbar?: ReactNode;
  rowActions?: RowActions<T>;
  /** Overrides the spinner (default: first load and page changes, not background refreshes). */
  loading?: boolean;
  rowKey?: TableProps<T>['rowKey'];
  rowSelection?: TableProps<T>['rowSelection'];
  rowClassName?: TableProps<T>['rowClassName'];
  /** A fixed row below the rows (e.g. totals over every matching row, not only the page). */
  summary?: TableProps<T>['summary'];
  /** Rows that open to show more (e.g. an invoice subscription's lines). */
  expandable?: TableProps<T>['expandable'];
  testId?: string;
  /** false: every row on one page, no paging bar (a list the API answers whole). */
  paged?: boolean;
}

/**
 * The one server-paged table of the app: paging with page-size choice and go-to-page, the
 * total, sorting by the declared columns, loading, empty and error (with retry) states,
 * optional row actions and a toolbar, in a card. The state lives in the caller
 * (usePagedState); after a delete it moves back to the last page that still exists.
 */
export function PagedTable<T extends object, S extends string = never>({
  query,
  state,
  onPageChange,
  columns,
  sort = NO_SORT,
  emptyText,
  title,
  toolbar,
  rowActions,
  loading,
  rowKey = 'id',
  rowSelection,
  rowClassName,
  summary,
  expandable,
  testId,
  paged = true,
}: PagedTableProps<T, S>) {
  const { t } = useTranslation();
  const total = query.data?.total ?? 0;

  // The last page may be gone after a delete.
  const { data, isPlaceholderData } = query;
  const { page, pageSize, sort: sortKey, order } = state;
  useEffect(() => {
    if (!data || isPlaceholderData) return;
    const last = clampPage(page, pageSize, data.total);
    if (last !== page) onPageChange({ page: last, pageSize, sort: sortKey, order });
  }, [data, isPlaceholderData, page, pageSize, sortKey, order, onPageChange]);

  const tableColumns = useMemo(() => {
    const sortable = sort.sortable as readonly string[];
    const cols: TableColumnType<T>[] = columns.map((c) =>
      sortable.includes(c.key)
        ? { ...c, sorter: true, sortOrder: columnSortOrder(state, c.key), showSorterTooltip: false }
        : c,
    );
    if (rowActions) {
      cols.push({
        key: 'actions',
        title: t('common.actions'),
        align: 'right',
        fixed: rowActions.fixed ? 'right' : undefined,
        width: rowActions.width,
        render: (_: unknown, row: T) => rowActions.render(row),
      });
    }
    return cols;
  }, [columns, sort.sortable, state, rowActions, t]);

  const onChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<T> | SorterResult<T>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    onPageChange(nextPaging(state, pagination, sortFromTable(sort, s?.columnKey ?? s?.field, s?.order)));
  };

  return (
    <Card title={title}>
      {toolbar}
      <Table<T>
        rowKey={rowKey}
        size="middle"
        columns={tableColumns}
        dataSource={query.data?.items ?? []}
        loading={loading ?? (query.isLoading || (query.isFetching && query.isPlaceholderData))}
        onChange={onChange}
        scroll={{ x: true }}
        rowSelection={
          rowSelection && {
            // antd's own labels are English ("Select all", "Select row 1") in every language.
            getTitleCheckboxProps: () => ({ 'aria-label': t('common.selectAll') }),
            ...rowSelection,
            getCheckboxProps: (r: T) => ({
              'aria-label': t('common.selectRow'),
              ...rowSelection.getCheckboxProps?.(r),
            }),
          }
        }
        rowClassName={rowClassName}
        expandable={expandable}
        summary={summary}
        locale={{
          emptyText: query.isError ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={errorText(t, query.error)}
              data-testid="table-error"
            >
              <Button
                icon={<ReloadOutlined />}
                onClick={() => void query.refetch()}
                data-testid="table-retry"
              >
                {t('common.retry')}
              </Button>
            </Empty>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} />
          ),
        }}
        pagination={
          paged && {
            current: state.page,
            pageSize: state.pageSize,
            total,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showTotal: (n, [from, to]) => t('common.rangeOfTotal', { from, to, total: n }),
          }
        }
        data-testid={testId}
      />
    </Card>
  );
}
