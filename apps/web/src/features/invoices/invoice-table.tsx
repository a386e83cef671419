import { useMemo } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { detailPath, INVOICE_SORTABLE, type Invoice, type Lang } from '@kulu/shared';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { formatDate, formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { invoiceListQuery } from './api';
import { BuyerText } from './buyer-text';
import { EInvoiceTag } from './format-tag';
import { ConfirmBuyerButton } from './confirm-buyer-button';
import { DeleteInvoiceButton } from './delete-invoice-button';
import { ContractWayForward } from './contract-way-forward';
import { ReconciliationTag } from './reconciliation-card';
import { amountOf, invoiceReasonText, PARSING_STATUS_COLOR, UPLOAD_STATE_COLOR } from './labels';

type Sort = (typeof INVOICE_SORTABLE)[number];

/** Newest first; clearing a sort goes back to it. */
const SORT: SortSpec<Sort> = { sortable: INVOICE_SORTABLE, defaultSort: 'createdAt', defaultOrder: 'desc' };

/** The client's invoices, newest first, server-paged and sorted; refreshes while a parse runs. */
export function InvoiceTable({ clientId, showClient }: { clientId?: number; showClient: boolean }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const base = useSession()?.basePath ?? '';
  const { state, tableOf } = usePagedState(SORT);
  const { page, pageSize, sort, order } = state;
  const list = useQuery(invoiceListQuery({ page, pageSize, sort: sort ?? 'createdAt', order, clientId }));

  const columns = useMemo<PagedColumn<Invoice>[]>(() => {
    const sorted = (key: Sort) => ({ key, dataIndex: key });
    const money = (v: string | null) => {
      const n = amountOf(v);
      return n === null ? '' : formatMoney(n, lang);
    };
    const cols: PagedColumn<Invoice>[] = [
      {
        ...sorted('invoiceNumber'),
        title: t('invoices.table.number'),
        render: (v: string | null, row) => (
          <>
            {row.uploadState === 'uploaded' ? (
              <Link to={detailPath(base, 'invoice', row.id)} data-testid="invoice-link">
                {v ?? row.fileName}
              </Link>
            ) : (
              (v ?? (
                <Typography.Text type="secondary" ellipsis style={{ maxWidth: 200 }}>
                  {row.fileName}
                </Typography.Text>
              ))
            )}
            <EInvoiceTag invoice={row} />
          </>
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
      {
        key: 'buyer',
        dataIndex: 'buyerName',
        title: t('invoices.table.buyer'),
        render: (_: string | null, row) => <BuyerText invoice={row} compact />,
      },
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
                  {invoiceReasonText(t, row)}
                </Typography.Text>
              </Tooltip>
            )}
            <ContractWayForward invoice={row} compact />
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
        ...sorted('difference'),
        title: t('invoices.reconciliation.column'),
        render: (v: string | null) => <ReconciliationTag difference={v} lang={lang} />,
      },
      {
        ...sorted('createdAt'),
        title: t('invoices.table.uploadedAt'),
        render: (v: string) => formatDate(v, lang),
        onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      },
      {
        key: 'actions',
        title: t('invoices.table.actions'),
        render: (_: unknown, row) =>
          row.uploadState === 'in_progress' ? null : (
            <Space size={4}>
              <ConfirmBuyerButton invoiceId={row.id} errorCode={row.errorCode} />
              <DeleteInvoiceButton invoiceId={row.id} />
            </Space>
          ),
      },
    );
    return cols;
  }, [showClient, lang, t, base]);

  return (
    <PagedTable<Invoice, Sort>
      title={t('invoices.table.title')}
      {...tableOf(list)}
      columns={columns}
      emptyText={t('invoices.table.empty')}
      rowClassName={(row) => (row.uploadState === 'failed' ? 'invoice-row-failed' : '')}
      testId="invoice-table"
    />
  );
}
