import { useMemo, useState } from 'react';
import { App, Button, Flex, Popconfirm, Space, Tooltip, Typography } from 'antd';
import type { ButtonProps } from 'antd';
import { DeleteOutlined, EditOutlined, FileExcelOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MASTER_RESOURCES, type Lang, type MasterKey, type MasterResource } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { errorText } from '../../lib/form-rules';
import { usePagedState } from '../../lib/use-paged-state';
import { deleteRow, exportList, listQuery, MASTERS_KEY, type Row } from './api';
import { MASTER_EXTRAS } from './extras';
import { cellText } from './format';
import { sortSpecOf, type Filters } from './list-query';
import { MasterFilters } from './master-filters';
import { MasterFormModal } from './master-form-modal';

/** Amount and number columns line up on the right. */
const alignOf = (type: string) =>
  type === 'money' || type === 'percent' || type === 'integer' ? 'right' : undefined;

const minWidthOf = (c: { type: string }, index: number) => (index === 0 ? 200 : c.type === 'text' ? 120 : 80);

/**
 * The page of any master resource, rendered from its shared declaration: title, search,
 * filters, a server-side paged and sorted table, add/edit in the app's modal, delete with
 * confirmation and export of the current list to Excel, plus what MASTER_EXTRAS adds.
 */
export function MasterPage({ masterKey }: { masterKey: MasterKey }) {
  const resource: MasterResource = MASTER_RESOURCES[masterKey];
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const extras = MASTER_EXTRAS[masterKey] ?? {};
  const sortSpec = useMemo(() => sortSpecOf(resource), [resource]);
  const { state, setState, onPageChange, search, setSearch, submitSearch } = usePagedState(sortSpec, {
    filters: {} as Filters,
  });
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [exporting, setExporting] = useState(false);

  const list = useQuery(listQuery(resource, state));

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

  const columns = useMemo<PagedColumn<Row>[]>(
    () =>
      resource.columns.map((c, i) => ({
        key: c.key,
        dataIndex: c.key,
        title: t(c.labelKey),
        align: alignOf(c.type),
        showSorterTooltip: false,
        // Long headers and texts wrap so that more columns fit; the first column (the row's name)
        // keeps room for a name on one line, amounts never wrap.
        onHeaderCell: () => ({ style: { whiteSpace: 'normal', minWidth: minWidthOf(c, i) } }),
        onCell: () => ({
          style: { whiteSpace: c.type === 'text' ? 'normal' : 'nowrap', minWidth: minWidthOf(c, i) },
        }),
        render: (value: unknown, row: Row) =>
          extras.renderCell?.[c.key]?.(value, row) ?? cellText(c, value, lang, (k) => t(k)),
      })),
    [resource, extras, lang, t],
  );

  const { RowActions } = extras;
  const renderActions = (row: Row) => (
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
  );

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
      <PagedTable<Row, string>
        query={list}
        state={state}
        onPageChange={onPageChange}
        sort={sortSpec}
        columns={columns}
        loading={list.isFetching}
        emptyText={filtered ? t('masters.ui.noMatches') : t('masters.ui.empty')}
        rowActions={{ render: renderActions, width: RowActions ? 150 : 100, fixed: true }}
        rowSelection={
          BulkActions
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (keys) => setSelected(keys.map(Number)),
              }
            : undefined
        }
        toolbar={
          <>
            <Flex wrap gap={12} style={{ marginBottom: 16 }} align="center">
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('masters.ui.search')}
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
          </>
        }
        testId="master-table"
      />
      {editing && (
        <MasterFormModal resource={resource} row={editing.row} open onClose={() => setEditing(null)} />
      )}
    </div>
  );
}
