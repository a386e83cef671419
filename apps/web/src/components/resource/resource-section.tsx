import { useMemo, useState, type ComponentType, type ReactNode } from 'react';
import { App, Button, Flex, Space, Typography } from 'antd';
import { FileExcelOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Lang, MasterList, MasterResource } from '@kulu/shared';
import { AddButton } from '../add-button';
import { ExportButton } from '../export-button';
import { PageHeading } from '../page-heading';
import { PagedTable, type PagedColumn } from '../paged-table';
import { RowEditDelete } from '../row-edit-delete';
import { SearchBox } from '../search-box';
import { errorText } from '../../lib/form-rules';
import { useIdSelection } from '../../lib/use-id-selection';
import { usePagedState } from '../../lib/use-paged-state';
import { deleteRow, exportList, listQuery, type Row, type WriteAnswer } from './api';
import { cellText } from './format';
import { sortSpecOf, type Filters } from './list-query';
import { ResourceFilters, type FilterOverride } from './resource-filters';
import { ResourceFormModal, type FieldOverride, type FormExtra } from './resource-form-modal';

export type { Row } from './api';
export type { PagedColumn } from '../paged-table';
export type { FilterOverride } from './resource-filters';
export type { FieldOverride, FormContext, FormExtra, FormSubmit } from './resource-form-modal';
export type { FormValues } from './form-values';

/**
 * A form of a screen's own, opened by add (`row` null) and edit instead of the declared one;
 * `rows` are the list's rows shown (e.g. for a rule across rows).
 */
export type EditForm = ComponentType<{
  row: Row | null;
  rows: readonly Row[];
  onClose: () => void;
  onSaved: () => void;
}>;

/** What is truly special about a resource, beside what its declaration says. */
export interface ResourceExtras {
  /** Cells shown otherwise than by the column's declared type. */
  renderCell?: Record<string, (value: unknown, row: Row) => ReactNode>;
  /**
   * The table's columns in order (default: the declared ones): a declared column by its key, or a
   * column of the screen's own (computed from the row, e.g. two values in one cell).
   */
  columns?: readonly (string | PagedColumn<Row>)[];
  /** Filters shown otherwise than their declaration says (choices, placeholder, test id). */
  filters?: Record<string, FilterOverride>;
  /** A form of the screen's own instead of the declared fields' (e.g. several submit buttons). */
  EditForm?: EditForm;
  /**
   * Further actions of a row (workflows: approve, activate, download…), before edit and delete;
   * `rows` are the list's rows shown.
   */
  RowActions?: ComponentType<{ row: Row; rows: readonly Row[] }>;
  /** Which rows open the form (default: all). */
  editable?: (row: Row) => boolean;
  /** Rows can be selected; these act on the selection. */
  BulkActions?: ComponentType<{ ids: number[]; onDone: () => void }>;
  /** Form fields shown or checked otherwise than by their declared type. */
  fields?: Record<string, FieldOverride>;
  /** API message codes that belong on one field of the form (not shown as a message too). */
  errorFields?: Record<string, string>;
  /** Beside the add button: e.g. the declared totals of the whole list. */
  summary?: (list: MasterList<Row> & Record<string, unknown>) => ReactNode;
  /** Above the table. */
  intro?: ReactNode;
  /** Column widths by key (also their least width: a short value's column may be narrower). */
  widths?: Partial<Record<string, number>>;
  /** The search box's width (default: the app's). */
  searchWidth?: number;
  /** The list's sort key of a column, when it is not the column's key. */
  sortKeys?: Partial<Record<string, string>>;
  /** Further buttons beside add (e.g. an import). */
  actions?: ReactNode;
  /** Form items beside the declared fields. */
  formExtra?: FormExtra;
}

/** The translated texts of a resource's screen. */
export interface ResourceTexts {
  /** A page's heading (the add and export buttons go beside it); none: a section of a page. */
  title?: string;
  /** Needed unless the screen is `addable={false}`. */
  add?: string;
  addTitle?: string;
  editTitle: string;
  empty: string;
  /** When a search or filter finds nothing (default: `empty`). */
  noMatches?: string;
  search?: string;
  edit: string;
  /** Needed unless the screen is `deletable={false}`. */
  delete?: string;
  deleteConfirm?: string;
  deleteHelp?: string;
}

export interface ResourceTestIds {
  root: string;
  table: string;
  add?: string;
  form?: string;
  save?: string;
  field?: (key: string) => string;
  edit?: string;
  delete?: string;
  confirmDelete?: string;
  /** The summary's text. */
  summary?: string;
}

export interface ResourceSectionProps {
  /** The shared declaration: columns, fields, sorts, filters, search, messages. */
  resource: MasterResource;
  /** Where the API serves it: `/api/masters/operators`, `/api/clients/7/payments`. */
  base: string;
  /** The query key of its list (`[...key, 'list', params]`). */
  queryKey: readonly unknown[];
  /** What a write invalidates (default: `queryKey`); e.g. the choices other forms show. */
  invalidate?: readonly (readonly unknown[])[];
  texts: ResourceTexts;
  testIds: ResourceTestIds;
  extras?: ResourceExtras;
  /** An Excel export of the current list (`<base>/export`). */
  exportable?: boolean;
  /** Fixed query parameters of the list and export (e.g. `clientId`), also sent with writes. */
  params?: Record<string, number | string | undefined>;
  /** Borderless row buttons with tooltips (a page's wide table). Row actions stay in view on the right either way. */
  plainActions?: boolean;
  /** The row's key when it is not `id` (e.g. `subscriptionId`); the declared form needs `id`. */
  rowKey?: string;
  /** false: no add button (rows come from elsewhere). */
  addable?: boolean;
  /** false: no delete button (rows never deleted, or ended by a workflow). */
  deletable?: boolean;
  /** The API answers the whole list (`{ items }` and the totals, no paging): one page, no paging bar. */
  unpaged?: boolean;
}

/** Amount and number columns line up on the right. */
const alignOf = (type: string) =>
  type === 'money' || type === 'percent' || type === 'integer' ? 'right' : undefined;

const minWidthOf = (c: { type: string }, index: number, width?: number) =>
  width ?? (index === 0 ? 200 : c.type === 'text' ? 120 : 80);

/**
 * The screen of any declared resource (a master page, a client's section): a server-side paged
 * and sorted table with the declared search and filters, totals, loading, empty and error
 * states, add/edit in the app's modal from the declared fields, delete with confirmation, the
 * API's messages in the user's language, optionally an Excel export; plus the extras.
 */
export function ResourceSection(p: ResourceSectionProps) {
  const { resource, base, texts, testIds, extras = {} } = p;
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const sortSpec = useMemo(() => sortSpecOf(resource), [resource]);
  const {
    state,
    setState,
    tableOf,
    searchBox: searchProps,
  } = usePagedState(sortSpec, {
    filters: {} as Filters,
  });
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const [selected, setSelected, selection] = useIdSelection();

  const list = useQuery({
    ...listQuery<MasterList<Row> & Record<string, unknown>>(resource, base, p.queryKey, state, p.params),
    // A whole list is one page of all its rows.
    select: p.unpaged
      ? (d: MasterList<Row> & Record<string, unknown>) => ({
          ...d,
          total: d.items.length,
          page: 1,
          pageSize: d.items.length,
        })
      : undefined,
  });
  const rows = list.data?.items ?? [];
  const refresh = () => {
    for (const key of p.invalidate ?? [p.queryKey]) void queryClient.invalidateQueries({ queryKey: key });
  };

  const remove = useMutation({
    mutationFn: (id: number) =>
      deleteRow(base, id).then((res): WriteAnswer & { id: number } => ({ ...res, id })),
    onSuccess: (res) => {
      refresh();
      setSelected((ids) => ids.filter((id) => id !== res.id));
      void message.success(
        t(`errors.${res.code ?? resource.messages.deleted}`, { defaultValue: res.message }),
      );
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const columns = useMemo<PagedColumn<Row>[]>(
    () =>
      (extras.columns ?? resource.columns.map((c) => c.key)).map((shown, i) => {
        if (typeof shown !== 'string') return shown;
        const c = resource.columns.find((d) => d.key === shown);
        if (!c) throw new Error(`${resource.key}: no declared column ${shown}`);
        const minWidth = minWidthOf(c, i, extras.widths?.[c.key]);
        return {
          key: extras.sortKeys?.[c.key] ?? c.key,
          dataIndex: c.key,
          title: t(c.labelKey),
          align: alignOf(c.type),
          width: extras.widths?.[c.key],
          // Long headers and texts wrap so that more columns fit; the first column (the row's name)
          // keeps room for a name on one line, amounts never wrap.
          onHeaderCell: () => ({ style: { whiteSpace: 'normal', minWidth } }),
          onCell: () => ({
            style: { whiteSpace: c.type === 'text' ? 'normal' : 'nowrap', minWidth },
          }),
          render: (value: unknown, row: Row) =>
            extras.renderCell?.[c.key]?.(value, row) ?? cellText(c, value, lang, (k) => t(k)),
        };
      }),
    [resource, extras, lang, t],
  );

  const { RowActions, BulkActions } = extras;
  const renderActions = (row: Row) => (
    <RowEditDelete
      className="master-row-actions"
      plain={p.plainActions}
      before={RowActions && <RowActions row={row} rows={rows} />}
      onEdit={
        resource.customWrite || extras.editable?.(row) === false ? undefined : () => setEditing({ row })
      }
      onDelete={p.deletable === false ? undefined : () => remove.mutateAsync(row.id).catch(() => undefined)}
      editLabel={texts.edit}
      deleteLabel={texts.delete ?? ''}
      confirm={texts.deleteConfirm ?? ''}
      confirmHelp={texts.deleteHelp}
      cancelLabel={t('common.cancel')}
      testIds={{ edit: testIds.edit, delete: testIds.delete, confirm: testIds.confirmDelete }}
    />
  );

  const filtered = state.q !== '' || Object.values(state.filters).some((v) => v !== undefined);
  const searchable = resource.searchable.length > 0;
  const addButton = p.addable !== false && (
    <AddButton label={texts.add} onClick={() => setEditing({ row: null })} testId={testIds.add} />
  );
  const exportButton = p.exportable && (
    <ExportButton
      request={() => exportList(resource, base, state, p.params)}
      label={t('masters.ui.export')}
      testId="export"
      icon={<FileExcelOutlined />}
    />
  );
  const searchBox = searchable && (
    <SearchBox {...searchProps} placeholder={texts.search ?? ''} width={extras.searchWidth} />
  );
  const filters = (
    <ResourceFilters
      resource={resource}
      overrides={extras.filters}
      filters={state.filters}
      onChange={(key, value) => setState((s) => ({ ...s, page: 1, filters: { ...s.filters, [key]: value } }))}
    />
  );
  const summary = extras.summary && (
    <Typography.Text strong data-testid={testIds.summary}>
      {list.data ? extras.summary(list.data) : null}
    </Typography.Text>
  );

  return (
    <div data-testid={testIds.root}>
      {texts.title !== undefined && (
        <PageHeading
          title={texts.title}
          extra={
            <Space wrap>
              {extras.actions}
              {exportButton}
              {addButton}
            </Space>
          }
        />
      )}
      {extras.intro}
      <PagedTable<Row, string>
        {...tableOf(list)}
        columns={columns}
        loading={list.isFetching}
        emptyText={filtered ? (texts.noMatches ?? texts.empty) : texts.empty}
        rowKey={p.rowKey ?? 'id'}
        paged={!p.unpaged}
        rowActions={{ render: renderActions, width: RowActions ? 150 : 100, fixed: true }}
        rowSelection={BulkActions ? selection : undefined}
        toolbar={
          <>
            <Flex
              wrap
              gap={12}
              style={{ marginBottom: 16 }}
              align="center"
              justify={texts.title === undefined ? 'space-between' : undefined}
            >
              {searchBox}
              {filters}
              {summary}
              {texts.title === undefined && (
                // On the right, also when nothing stands before it.
                <Space wrap style={{ marginInlineStart: 'auto' }}>
                  {extras.actions}
                  {exportButton}
                  {addButton}
                </Space>
              )}
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
        testId={testIds.table}
      />
      {editing && extras.EditForm && (
        <extras.EditForm row={editing.row} rows={rows} onClose={() => setEditing(null)} onSaved={refresh} />
      )}
      {editing && !extras.EditForm && (
        <ResourceFormModal
          resource={resource}
          base={base}
          row={editing.row}
          title={editing.row ? texts.editTitle : (texts.addTitle ?? '')}
          onClose={() => setEditing(null)}
          onSaved={refresh}
          testIds={{ form: testIds.form, save: testIds.save, field: testIds.field }}
          fields={extras.fields}
          errorFields={extras.errorFields}
          formExtra={extras.formExtra}
          rows={rows}
          body={p.params}
        />
      )}
    </div>
  );
}
