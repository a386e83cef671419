import { useMemo, useState } from 'react';
import { Card, Empty, Table, Tag, Tooltip, Typography } from 'antd';
import type { TableColumnsType, TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { INVOICE_SORTABLE, type Invoice, type Lang } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { formatDate, formatMoney } from '../../lib/format';
import { PAGE_SIZES } from '../../lib/paging';
import { invoiceListQuery, type InvoiceListParams } from './api';
import { amountOf, PARSING_STATUS_COLOR, reasonText, UPLOAD_STATE_COLOR } from './labels';

type Sort = (typeof INVOICE_SORTABLE)[number];

const sortKey = (field: unknown): Sort | undefined =>
  typeof field === 'string' && (INVOICE_SORTABLE as readonly string[]).includes(field)
    ? (field as Sort)
    : undefined;

/** The client's invoices, newest first, server-paged and sorted; refreshes while a parse runs. */
export function InvoiceTable({ clientId, showClient }: { clientId?: number; showClient: boolean }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const [params, setParams] = useState<Omit<InvoiceListParams, 'clientId'>>({
    page: 1,
    pageSize: 20,
    sort: 'createdAt',
    order: 'desc',
  });
  const list = useQuery(invoiceListQuery({ ...params, clientId }));

  const columns = useMemo<TableColumnsType<Invoice>>(() => {
    const sorted = (key: Sort) => ({
      key,
      dataIndex: key,
      sorter: true,
      showSorterTooltip: false,
      sortOrder:
        params.sort === key ? (params.order === 'desc' ? ('descend' as const) : ('ascend' as const)) : null,
    });
    const money = (v: string | null) => {
      const n = amountOf(v);
      return n === null ? '' : formatMoney(n, lang);
    };
    const cols: TableColumnsType<Invoice> = [
      {
        ...sorted('invoiceNumber'),
        title: t('invoices.table.number'),
        render: (v: string | null, row) =>
          v ?? (
            <Typography.Text type="secondary" ellipsis style={{ maxWidth: 200 }}>
              {row.fileName}
            </Typography.Text>
          ),
      },
      {
        ...sorted('invoiceDate'),
        title: t('invoices.table.date'),
        render: (v: string | null) => formatDate(v, lang),
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
      { ...sorted('operatorName'), title: t('invoices.table.operator') },
    ];
    if (showClient) cols.push({ ...sorted('clientName'), title: t('invoices.table.client') });
    cols.push(
      { ...sorted('subCompanyName'), title: t('invoices.table.subCompany') },
      {
        ...sorted('parsingStatus'),
        title: t('invoices.table.parsingStatus'),
        render: (v: Invoice['parsingStatus']) => (
          <Tag color={PARSING_STATUS_COLOR[v]}>{t(`invoices.parsingStatus.${v}`)}</Tag>
        ),
      },
      {
        ...sorted('uploadState'),
        title: t('invoices.table.uploadState'),
        render: (v: Invoice['uploadState'], row) => (
          <div data-testid="upload-state">
            <Tag color={UPLOAD_STATE_COLOR[v]}>{t(`invoices.uploadState.${v}`)}</Tag>
            {v === 'failed' && (
              <Tooltip title={row.errorDetail ?? undefined}>
                <Typography.Text type="danger" style={{ display: 'block', fontSize: 12, maxWidth: 260 }}>
                  {reasonText(t, row.errorCode, row.errorMessage)}
                </Typography.Text>
              </Tooltip>
            )}
          </div>
        ),
      },
      {
        ...sorted('totalExclVat'),
        title: t('invoices.table.totalExclVat'),
        align: 'right',
        render: money,
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
      {
        ...sorted('totalInclVat'),
        title: t('invoices.table.totalInclVat'),
        align: 'right',
        render: money,
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
      {
        ...sorted('createdAt'),
        title: t('invoices.table.uploadedAt'),
        render: (v: string) => formatDate(v, lang),
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
    );
    return cols;
  }, [params.sort, params.order, showClient, lang, t]);

  const onChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<Invoice> | SorterResult<Invoice>[],
  ) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = s?.order ? sortKey(s.columnKey ?? s.field) : undefined;
    const sort: Sort = key ?? 'createdAt';
    const order = key ? (s.order === 'descend' ? 'desc' : 'asc') : 'desc';
    setParams((prev) => {
      const reset = sort !== prev.sort || order !== prev.order || pagination.pageSize !== prev.pageSize;
      return {
        sort,
        order,
        pageSize: pagination.pageSize ?? prev.pageSize,
        page: reset ? 1 : (pagination.current ?? prev.page),
      };
    });
  };

  return (
    <Card title={t('invoices.table.title')}>
      <Table<Invoice>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data?.items ?? []}
        loading={list.isLoading || (list.isFetching && list.isPlaceholderData)}
        onChange={onChange}
        scroll={{ x: true }}
        rowClassName={(row) => (row.uploadState === 'failed' ? 'invoice-row-failed' : '')}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={list.isError ? errorText(t, list.error) : t('invoices.table.empty')}
            />
          ),
        }}
        pagination={{
          current: params.page,
          pageSize: params.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          showQuickJumper: true,
          pageSizeOptions: PAGE_SIZES.map(String),
          showTotal: (n, [from, to]) => t('masters.ui.total', { from, to, total: n }),
        }}
        data-testid="invoice-table"
      />
    </Card>
  );
}
