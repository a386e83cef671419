import { Card, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { InvoiceDetail, Lang, UnconvertedLine } from '@kulu/shared';
import { formatMoney, formatNumber, orNone } from '../../lib/format';
import { euros } from '../../lib/chart-options';

/** A rate as the interface writes it: 25,5 % / 25.5 %. */
const rateText = (rate: string, lang: Lang) => `${formatNumber(Number(rate), lang)} %`;

interface Row {
  key: string;
  label: string;
  computed: string | null;
  stated: string | null;
  difference: string | null;
  strong?: boolean;
}

/** stated − computed, in cents, as euros (null: nothing to compare). */
const diffOf = (stated: string | null, computed: string | null) =>
  stated === null || computed === null
    ? null
    : ((Math.round(Number(stated) * 100) - Math.round(Number(computed) * 100)) / 100).toFixed(2);

/**
 * An invoice's reconciliation (issue 38): the subscriptions' and invoice-level lines' sums, the
 * total excl. VAT computed beside the stated one, VAT per rate (stated, and base × rate), the
 * stated total incl. VAT beside excl. + VAT, and each difference above one cent with where it sits.
 */
export function ReconciliationCard({ invoice, lang }: { invoice: InvoiceDetail; lang: Lang }) {
  const { t } = useTranslation();
  const r = invoice.reconciliation;
  if (!r) return null;
  const money = (v: string | null) => (v === null ? '' : formatMoney(euros(v), lang));
  const rows: Row[] = [
    {
      key: 'subscriptions',
      label: t('invoices.reconciliation.subscriptions'),
      computed: r.subscriptionsTotal,
      stated: null,
      difference: null,
    },
    {
      key: 'otherLines',
      label: t('invoices.reconciliation.otherLines'),
      computed: r.otherLinesTotal,
      stated: null,
      difference: null,
    },
    {
      key: 'excl',
      label: t('invoices.reconciliation.totalExclVat'),
      computed: r.computedExclVat,
      stated: r.statedExclVat,
      difference: diffOf(r.statedExclVat, r.computedExclVat),
      strong: true,
    },
    ...r.vatRates.map((v) => ({
      key: `vat-${v.rate}`,
      label: t('invoices.reconciliation.vatRate', {
        rate: rateText(v.rate, lang),
        base: money(v.base),
      }),
      computed: v.computedVat,
      stated: v.statedVat,
      difference: diffOf(v.statedVat, v.computedVat),
    })),
    {
      key: 'incl',
      label: t('invoices.reconciliation.totalInclVat'),
      computed: r.computedInclVat,
      stated: r.statedInclVat,
      difference: diffOf(r.statedInclVat, r.computedInclVat),
      strong: true,
    },
  ];
  const columns: TableColumnsType<Row> = [
    {
      title: t('invoices.reconciliation.figure'),
      dataIndex: 'label',
      render: (v: string, row) => (row.strong ? <strong>{v}</strong> : v),
    },
    {
      title: t('invoices.reconciliation.computed'),
      dataIndex: 'computed',
      align: 'right',
      render: money,
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      title: t('invoices.reconciliation.stated'),
      dataIndex: 'stated',
      align: 'right',
      render: money,
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      title: t('invoices.reconciliation.difference'),
      dataIndex: 'difference',
      align: 'right',
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
      render: (v: string | null) =>
        v === null ? (
          ''
        ) : Math.abs(Number(v)) > 0.01 ? (
          <Typography.Text type="danger">{money(v)}</Typography.Text>
        ) : (
          money(v)
        ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('invoices.reconciliation.title')}
      extra={
        <ReconciliationTag
          difference={r.reconciled ? '0.00' : (r.differences[0]?.difference ?? null)}
          lang={lang}
        />
      }
      data-testid="invoice-reconciliation"
    >
      <Table<Row>
        size="small"
        rowKey="key"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="invoice-reconciliation-table"
      />
      {r.differences.length > 0 && (
        <ul data-testid="invoice-differences" style={{ margin: '12px 0 0', paddingInlineStart: 20 }}>
          {r.differences.map((d, i) => (
            <li key={i}>
              <Typography.Text type="danger">
                {t(
                  `invoices.reconciliation.where.${d.where === 'vat' && d.rate === null ? 'vatNoRate' : d.where}`,
                  {
                    rate: d.rate === null ? '' : rateText(d.rate, lang),
                    stated: money(d.stated),
                    computed: money(d.computed),
                    difference: money(d.difference),
                  },
                )}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** "Reconciled" or the difference in €, as the list and the invoice page show it (null: not read). */
export function ReconciliationTag({ difference, lang }: { difference: string | null; lang: Lang }) {
  const { t } = useTranslation();
  if (difference === null) return null;
  const off = Math.abs(Number(difference)) > 0.01;
  return (
    <Tag color={off ? 'error' : 'success'} data-testid="reconciliation-tag" data-reconciled={String(!off)}>
      {off
        ? t('invoices.reconciliation.differenceTag', { amount: formatMoney(euros(difference), lang) })
        : t('invoices.reconciliation.reconciled')}
    </Tag>
  );
}

/** The rows whose quantity is in a unit Kulu does not convert (kept as stated, never counted as usage). */
export function UnconvertedLinesCard({ invoice, lang }: { invoice: InvoiceDetail; lang: Lang }) {
  const { t } = useTranslation();
  const { items, total } = invoice.unconvertedLines;
  if (total === 0) return null;
  const columns: TableColumnsType<UnconvertedLine> = [
    { title: t('detail.line.label'), dataIndex: 'label' },
    {
      title: t('invoices.reconciliation.subscription'),
      key: 'subscription',
      render: (_: unknown, l) =>
        l.phoneNumber === null
          ? t('invoices.reconciliation.invoiceLevel')
          : `${l.phoneNumber} ${orNone(l.userName)}`,
    },
    {
      title: t('detail.line.quantity'),
      key: 'quantity',
      align: 'right',
      render: (_: unknown, l) => (l.quantity === null ? '' : formatNumber(Number(l.quantity), lang)),
    },
    {
      title: t('invoices.reconciliation.unit'),
      dataIndex: 'unitCode',
      render: (v: string) => v || t('invoices.reconciliation.noUnit'),
    },
    {
      title: t('detail.line.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (v: string) => formatMoney(euros(v), lang),
    },
  ];
  return (
    <Card
      size="small"
      title={t('invoices.reconciliation.unconvertedTitle')}
      data-testid="invoice-unconverted"
    >
      <Typography.Paragraph type="secondary">
        {t('invoices.reconciliation.unconvertedText', { count: total })}
      </Typography.Paragraph>
      <Table<UnconvertedLine>
        size="small"
        rowKey={(_, i) => String(i)}
        columns={columns}
        dataSource={items}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />
    </Card>
  );
}
