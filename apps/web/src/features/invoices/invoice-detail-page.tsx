import { useMemo, useState } from 'react';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Space, Table, Tag } from 'antd';
import { LoadError } from '../../components/load-error';
import type { TableColumnsType } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import {
  detailPath,
  INVOICE_SUBSCRIPTION_SORTABLE,
  type InvoiceDetail,
  type InvoiceLineRow,
  type InvoiceSubscription,
  type Lang,
} from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { moneyColumn, moneyOf, subscriptionColumns } from '../../components/report-columns';
import { SearchBox } from '../../components/search-box';
import { downloadFile } from '../../lib/download';
import { errorText } from '../../lib/form-rules';
import { formatDate, formatMoney, formatNumber, orNone } from '../../lib/format';
import { registerDetailTexts } from '../../lib/detail-texts';
import { routeId } from '../../lib/route-id';
import type { SortSpec } from '../../lib/paging';
import { useSession } from '../../lib/session';
import { usePagedState } from '../../lib/use-paged-state';
import { CategoryCard } from '../../components/category-card';
import { euros, formatMonth } from '../../lib/chart-options';
import { invoiceDetailQuery, invoiceSubscriptionsQuery } from './api';
import { BuyerText } from './buyer-text';
import { EInvoiceTag } from './format-tag';
import { ConfirmBuyerButton } from './confirm-buyer-button';
import { DeleteInvoiceButton } from './delete-invoice-button';
import { PARSING_STATUS_COLOR, UPLOAD_STATE_COLOR } from './labels';
import { ReconciliationCard, UnconvertedLinesCard } from './reconciliation-card';

registerDetailTexts();

type Sort = (typeof INVOICE_SUBSCRIPTION_SORTABLE)[number];
const SORT: SortSpec<Sort> = { sortable: INVOICE_SUBSCRIPTION_SORTABLE, defaultSort: 'phoneNumber' };

const langOf = (language: string): Lang => (language === 'fi' ? 'fi' : 'en');

/**
 * One invoice (issue 10): header and totals, cost by category, the subscriptions on it (searched,
 * sorted and paged by the API, each opening to its lines and linking to the subscription), the
 * invoice-level charges and the original file (PDF or Finvoice e-invoice).
 */
export function InvoiceDetailPage() {
  const { t, i18n } = useTranslation();
  const lang = langOf(i18n.language);
  const id = routeId(useParams().id);
  const invoice = useQuery({ ...invoiceDetailQuery(id ?? 0, lang), enabled: id !== null });

  if (id === null) return <Result status="404" title={t('common.notFound.text')} />;
  if (invoice.isError) {
    return <LoadError title={t('detail.invoice.loadFailed')} query={invoice} testId="invoice-detail-error" />;
  }
  if (!invoice.data) return <Skeleton active paragraph={{ rows: 10 }} data-testid="invoice-detail-loading" />;
  return <InvoiceView invoice={invoice.data} lang={lang} />;
}

function InvoiceView({ invoice, lang }: { invoice: InvoiceDetail; lang: Lang }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = useSession()?.basePath ?? '';
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const money = (v: string | null) => (v === null ? '' : formatMoney(euros(v), lang));

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadFile(`/api/invoices/${invoice.id}/file`, invoice.fileName);
    } catch (e) {
      setDownloadError(e);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div data-testid="invoice-detail-page">
      <PageHeading
        title={t('detail.invoice.title', { number: invoice.invoiceNumber ?? invoice.fileName })}
        extra={
          <Space>
            <Button
              icon={<DownloadOutlined />}
              loading={downloading}
              onClick={() => void download()}
              data-testid="invoice-download"
            >
              {t(invoice.format !== 'pdf' ? 'detail.invoice.downloadFinvoice' : 'detail.invoice.download')}
            </Button>
            <ConfirmBuyerButton invoiceId={invoice.id} errorCode={invoice.errorCode} withText />
            <DeleteInvoiceButton
              invoiceId={invoice.id}
              withText
              onDeleted={() => void navigate(`${base}/invoice-upload`)}
            />
          </Space>
        }
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {downloadError !== null && (
          <Alert type="error" showIcon closable title={errorText(t, downloadError)} />
        )}
        <Card size="small">
          <Descriptions
            size="small"
            column={{ xs: 1, md: 2, xl: 3 }}
            data-testid="invoice-header"
            items={[
              { key: 'operator', label: t('invoices.table.operator'), children: invoice.operatorName ?? '' },
              {
                key: 'number',
                label: t('invoices.table.number'),
                children: (
                  <>
                    {invoice.invoiceNumber ?? ''}
                    <EInvoiceTag invoice={invoice} />
                  </>
                ),
              },
              {
                key: 'date',
                label: t('invoices.table.date'),
                children: formatDate(invoice.invoiceDate, lang),
              },
              {
                key: 'month',
                label: t('detail.billingMonth'),
                children: invoice.periodStart ? formatMonth(invoice.periodStart.slice(0, 7), lang) : '',
              },
              { key: 'client', label: t('invoices.table.client'), children: invoice.clientName },
              { key: 'buyer', label: t('invoices.table.buyer'), children: <BuyerText invoice={invoice} /> },
              {
                key: 'subCompany',
                label: t('invoices.table.subCompany'),
                children: orNone(invoice.subCompanyName),
              },
              {
                key: 'excl',
                label: t('invoices.table.totalExclVat'),
                children: <strong data-testid="invoice-total-excl">{money(invoice.totalExclVat)}</strong>,
              },
              { key: 'vat', label: t('detail.invoice.vat'), children: money(invoice.vatAmount) },
              { key: 'incl', label: t('invoices.table.totalInclVat'), children: money(invoice.totalInclVat) },
              {
                key: 'state',
                label: t('invoices.table.uploadState'),
                children: (
                  <Space size={4}>
                    <Tag color={UPLOAD_STATE_COLOR[invoice.uploadState]}>
                      {t(`invoices.uploadState.${invoice.uploadState}`)}
                    </Tag>
                    <Tag color={PARSING_STATUS_COLOR[invoice.parsingStatus]}>
                      {t(`invoices.parsingStatus.${invoice.parsingStatus}`)}
                    </Tag>
                  </Space>
                ),
              },
              {
                key: 'counts',
                label: t('detail.invoice.counts'),
                children: t('detail.invoice.countsValue', {
                  subscriptions: formatNumber(invoice.subscriptionCount, lang),
                  lines: formatNumber(invoice.lineCount, lang),
                }),
              },
            ]}
          />
        </Card>
        <ReconciliationCard invoice={invoice} lang={lang} />
        <UnconvertedLinesCard invoice={invoice} lang={lang} />
        <CategoryCard byCategory={invoice.byCategory} lang={lang} testId="invoice-categories" height={280} />
        <InvoiceSubscriptions invoiceId={invoice.id} lang={lang} />
        {invoice.otherLines.length > 0 && (
          <Card title={t('detail.invoice.otherLines')} size="small">
            <LinesTable lines={invoice.otherLines} lang={lang} testId="invoice-other-lines" />
          </Card>
        )}
      </Space>
    </div>
  );
}

function InvoiceSubscriptions({ invoiceId, lang }: { invoiceId: number; lang: Lang }) {
  const { t } = useTranslation();
  const session = useSession();
  const base = session?.basePath ?? '';
  const { state, paging, tableOf, searchBox } = usePagedState(SORT);
  const list = useQuery(
    invoiceSubscriptionsQuery(invoiceId, { ...paging, sort: paging.sort ?? 'phoneNumber' }),
  );
  const columns = useMemo<PagedColumn<InvoiceSubscription>[]>(
    () => [
      {
        key: 'phoneNumber',
        dataIndex: 'phoneNumber',
        title: t('dashboards.phoneNumber'),
        render: (v: string, row) => (
          <Link to={detailPath(base, 'subscription', row.subscriptionId)} data-testid="subscription-link">
            {v}
          </Link>
        ),
      },
      ...subscriptionColumns<InvoiceSubscription>(t, ['userName', 'subCompanyName', 'costCenterName']),
      { key: 'planName', dataIndex: 'planName', title: t('detail.plan'), render: orNone },
      moneyColumn<InvoiceSubscription>('total', t('detail.invoice.subscriptionTotal'), moneyOf(lang)),
    ],
    [t, lang, base],
  );

  return (
    <PagedTable<InvoiceSubscription, Sort>
      title={t('detail.invoice.subscriptions')}
      {...tableOf(list)}
      columns={columns}
      rowKey="subscriptionId"
      emptyText={state.q ? t('detail.noMatches') : t('detail.invoice.noSubscriptions')}
      toolbar={
        <SearchBox
          {...searchBox}
          placeholder={t('detail.invoice.search')}
          alone
          testId="invoice-subscription-search"
        />
      }
      expandable={{
        expandedRowRender: (row) => <LinesTable lines={row.lines} lang={lang} testId="subscription-lines" />,
      }}
      testId="invoice-subscriptions"
    />
  );
}

/** Invoice lines: label, category, quantity with its unit, unit price and amount. */
function LinesTable({ lines, lang, testId }: { lines: InvoiceLineRow[]; lang: Lang; testId: string }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<InvoiceLineRow> = [
    { title: t('detail.line.label'), dataIndex: 'label' },
    {
      title: t('dashboards.costCategory'),
      dataIndex: 'costCategoryName',
      render: (v: string | null) => v ?? t('dashboards.uncategorized'),
    },
    {
      title: t('detail.line.quantity'),
      key: 'quantity',
      align: 'right',
      render: (_: unknown, l) =>
        l.quantity === null
          ? ''
          : `${formatNumber(Number(l.quantity), lang)} ${
              // A unit Kulu does not convert: the invoice's own, as stated.
              l.unit === 'other' ? (l.unitCode ?? '') : l.unit ? t(`detail.unit.${l.unit}`) : ''
            }`.trim(),
    },
    {
      title: t('detail.line.unitPrice'),
      dataIndex: 'unitPrice',
      align: 'right',
      render: (v: string | null) =>
        v === null
          ? ''
          : new Intl.NumberFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
              style: 'currency',
              currency: 'EUR',
              maximumFractionDigits: 4,
            }).format(Number(v)),
    },
    {
      title: t('detail.line.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => formatMoney(euros(v), lang),
    },
  ];
  return (
    <Table<InvoiceLineRow>
      size="small"
      rowKey="id"
      columns={columns}
      dataSource={lines}
      pagination={false}
      data-testid={testId}
    />
  );
}
