import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Empty, Flex, Input, Popconfirm, Space, Table, Tooltip, Typography } from 'antd';
import type { ButtonProps, TableColumnsType, TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { DeleteOutlined, EditOutlined, FileExcelOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Lang, MasterKey, MasterResource } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { errorText } from '../../lib/form-rules';
import { deleteRow, exportList, listQuery, MASTERS_KEY, type Row } from './api';
import { MASTER_EXTRAS } from './extras';
import { cellText } from './format';
import { clampPage, initialListState, PAGE_SIZES, sortFromTable, type ListState } from './list-query';
import { MasterFilters } from './master-filters';
import { MasterFormModal } from './master-form-modal';

const SEARCH_DELAY_MS = 300;

/** Amount and number columns line up on the right. */
const alignOf = (type: string) =>
  type === 'money' || type === 'percent' || type === 'integer' ? 'right' : undefined;

const minWidthOf = (c: { type: string }, index: number) => (index === 0 ? 200 : c.type === 'text' ? 120 : 80);

/**
 * The page of any master resource, rendered from its shared declaration: title, search,
 * filters, a server-side paged and sorted table, add/edit in the app's modal, delete with
 * confirmation and export of the current list to Excel, plus what MASTER_EXTRAS adds.
 */
export function MasterPage({ resource }: { resource: MasterResource }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const extras = MASTER_EXTRAS[resource.key as MasterKey] ?? {};
  const [state, setState] = useState<ListState>(() => initialListState(resource));
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [exporting, setExporting] = useState(false);

  // Search as the user types, after a short pause.
  useEffect(() => {
    const timer = setTimeout(
      () => setState((s) => (s.q === search ? s : { ...s, q: search, page: 1 })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [search]);

  const list = useQuery(listQuery(resource, state));
  const total = list.data?.total ?? 0;

  // The last page may be gone after a delete.
  useEffect(() => {
    if (!list.data || list.isPlaceholderData) return;
    const page = clampPage(state.page, state.pageSize, list.data.total);
    if (page !== state.page) setState((s) => ({ ...s, page }));
  }, [list.data, list.isPlaceholderData, state.page, state.pageSize]);

  const remove = useMutation({
    mutationFn: (id: number) => deleteRow(resource, id),
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: MASTERS_KEY });
      setSelected((ids) => ids.filter((id) => id !== res.id));
      void message.success(t(`errors.${res.code}`, { defaultValue: res.message }));
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const onExport = async () => {
    setExporting(true);
    try {
      await exportList(resource, state);
    } catch (err) {
      void message.error(errorText(t, err));
    } finally {
      setExporting(false);
    }
  };

  const sortable = resource.sortable as readonly string[];
  const columns = useMemo<TableColumnsType<Row>>(() => {
    const cols: TableColumnsType<Row> = resource.columns.map((c, i) => ({
      key: c.key,
      dataIndex: c.key,
      title: t(c.labelKey),
      align: alignOf(c.type),
      sorter: sortable.includes(c.key),
      sortOrder: state.sort === c.key ? (state.order === 'desc' ? 'descend' : 'ascend') : null,
      showSorterTooltip: false,
      // Long headers and texts wrap so that more columns fit; the first column (the row's name)
      // keeps room for a name on one line, amounts never wrap.
      onHeaderCell: () => ({ style: { whiteSpace: 'normal', minWidth: minWidthOf(c, i) } }),
      onCell: () => ({
        style: { whiteSpace: c.type === 'text' ? 'normal' : 'nowrap', minWidth: minWidthOf(c, i) },
      }),
      render: (value: unknown, row: Row) =>
        extras.renderCell?.[c.key]?.(value, row) ?? cellText(c, value, lang, (k) => t(k)),
    }));
    const { RowActions } = extras;
    cols.push({
      key: 'actions',
      title: t('masters.ui.actions'),
      fixed: 'right',
      align: 'right',
      width: RowActions ? 150 : 100,
      render: (_: unknown, row: Row) => (
        <Space size={0} className="master-row-actions">
          {RowActions && <RowActions row={row} />}
          {!resource.customWrite && (
            <Tooltip title={t('masters.ui.edit')}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('masters.ui.edit')}
                onClick={() => setEditing({ row })}
                data-testid="edit-row"
              />
            </Tooltip>
          )}
          <Popconfirm
            title={t('masters.ui.deleteConfirm')}
            okText={t('masters.ui.delete')}
            okButtonProps={{ danger: true, 'data-testid': 'confirm-delete' } as ButtonProps}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id).catch(() => undefined)}
          >
            {/* No tooltip here: it would cover the confirmation; the title attribute names it. */}
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              title={t('masters.ui.delete')}
              aria-label={t('masters.ui.delete')}
              data-testid="delete-row"
            />
          </Popconfirm>
        </Space>
      ),
    });
    return cols;
  }, [resource, sortable, state.sort, state.order, extras, lang, t, remove]);

  const onTableChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<Row> | SorterResult<Row>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const sort = sortFromTable(resource, s?.columnKey ?? s?.field, s?.order);
    setState((prev) => {
      const sortChanged = sort.sort !== prev.sort || sort.order !== prev.order;
      const sizeChanged = pagination.pageSize !== undefined && pagination.pageSize !== prev.pageSize;
      return {
        ...prev,
        ...sort,
        pageSize: pagination.pageSize ?? prev.pageSize,
        page: sortChanged || sizeChanged ? 1 : (pagination.current ?? prev.page),
      };
    });
  };

  const filtered = state.q !== '' || Object.values(state.filters).some((v) => v !== undefined);
  const { BulkActions } = extras;
  const title = t(`masters.titles.${resource.key}`);

  return (
    <div data-testid={`master-page-${resource.key}`}>
      <PageHeading
        title={title}
        extra={
          <Space wrap>
            <Button
              icon={<FileExcelOutlined />}
              loading={exporting}
              onClick={() => void onExport()}
              data-testid="export"
            >
              {t('masters.ui.export')}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ row: null })}
              data-testid="add"
            >
              {resource.customWrite ? t('masters.ui.upload') : t('masters.ui.add')}
            </Button>
          </Space>
        }
      />
      <Card>
        <Flex wrap gap={12} style={{ marginBottom: 16 }} align="center">
          <Input.Search
            allowClear
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onSearch={(v) => {
              setSearch(v);
              setState((s) => ({ ...s, q: v, page: 1 }));
            }}
            placeholder={t('masters.ui.search')}
            aria-label={t('masters.ui.search')}
            style={{ width: 280 }}
            data-testid="search"
          />
          <MasterFilters
            resource={resource}
            filters={state.filters}
            onChange={(key, value) =>
              setState((s) => ({ ...s, page: 1, filters: { ...s.filters, [key]: value } }))
            }
          />
        </Flex>
        {BulkActions && (
          <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }}>
            <Typography.Text type="secondary" data-testid="selection-count">
              {t('masters.ui.selected', { count: selected.length })}
            </Typography.Text>
            <BulkActions ids={selected} onDone={() => setSelected([])} />
            {selected.length > 0 && (
              <Button type="link" onClick={() => setSelected([])}>
                {t('masters.ui.clearSelection')}
              </Button>
            )}
          </Flex>
        )}
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.items ?? []}
          loading={list.isFetching}
          onChange={onTableChange}
          scroll={{ x: true }}
          rowSelection={
            BulkActions
              ? {
                  selectedRowKeys: selected,
                  preserveSelectedRowKeys: true,
                  onChange: (keys) => setSelected(keys.map(Number)),
                }
              : undefined
          }
          locale={{
            emptyText: list.isError ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={errorText(t, list.error)} />
            ) : (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={filtered ? t('masters.ui.noMatches') : t('masters.ui.empty')}
              />
            ),
          }}
          pagination={{
            current: state.page,
            pageSize: state.pageSize,
            total,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showTotal: (n, [from, to]) => t('masters.ui.total', { from, to, total: n }),
          }}
          data-testid="master-table"
        />
      </Card>
      {editing && (
        <MasterFormModal resource={resource} row={editing.row} open onClose={() => setEditing(null)} />
      )}
    </div>
  );
}
