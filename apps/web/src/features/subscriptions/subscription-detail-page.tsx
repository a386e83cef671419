import { useMemo, useState } from 'react';
import { Card, Col, Descriptions, Empty, Result, Row, Skeleton, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { LoadError } from '../../components/load-error';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import dayjs, { type Dayjs } from 'dayjs';
import { detailPath, type Lang, type SubscriptionDetail } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { formatDate, formatMoney } from '../../lib/format';
import { registerDetailTexts } from '../../lib/detail-texts';
import { routeId } from '../../lib/route-id';
import { useSession } from '../../lib/session';
import { CategoryCard } from '../../components/category-card';
import { ChartCard } from '../../components/chart-card';
import { MonthRangePicker } from '../../components/filter-fields';
import { monthColumns } from '../../components/report-columns';
import { euros, formatCount, formatGb, formatMonth, trendOption } from '../../lib/chart-options';
import { subscriptionQuery } from './api';

registerDetailTexts();

type Month = SubscriptionDetail['months'][number];
type InvoiceRow = SubscriptionDetail['invoices'][number];
type Finding = NonNullable<SubscriptionDetail['finding']>;

const MONTH = 'YYYY-MM';
const KIND_COLOR: Record<Finding['kind'], string> = {
  optimized: 'green',
  unoptimized: 'default',
  unused: 'orange',
};

/**
 * One subscription (issue 10): who and what it is, its plan, its months of cost and usage as a
 * chart and a table, cost by category for a chosen period, the invoices it is on and its
 * optimization finding.
 */
export function SubscriptionDetailPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const id = routeId(useParams().id);
  const [period, setPeriod] = useState<[Dayjs, Dayjs] | null>(null);
  const query = useQuery({
    ...subscriptionQuery(
      id ?? 0,
      period ? { from: period[0].format(MONTH), to: period[1].format(MONTH) } : {},
      lang,
    ),
    enabled: id !== null,
  });

  if (id === null) return <Result status="404" title={t('common.notFound.text')} />;
  if (query.isError && !query.data) {
    return (
      <LoadError
        title={t('detail.subscription.loadFailed')}
        query={query}
        testId="subscription-detail-error"
      />
    );
  }
  if (!query.data) {
    return <Skeleton active paragraph={{ rows: 10 }} data-testid="subscription-detail-loading" />;
  }
  return <SubscriptionView data={query.data} lang={lang} period={period} onPeriod={setPeriod} />;
}

function SubscriptionView({
  data,
  lang,
  period,
  onPeriod,
}: {
  data: SubscriptionDetail;
  lang: Lang;
  period: [Dayjs, Dayjs] | null;
  onPeriod: (p: [Dayjs, Dayjs]) => void;
}) {
  const { t } = useTranslation();
  const session = useSession();
  const base = session?.basePath ?? '';
  const permissions = session?.acessPermissions ?? [];
  const money = (v: string) => formatMoney(euros(v), lang);
  const texts = useMemo(
    () => ({ cost: t('dashboards.cost'), uncategorized: t('dashboards.uncategorized') }),
    [t],
  );
  const trend = useMemo(() => trendOption(data.months, new Map(), lang, texts), [data.months, lang, texts]);
  const shownPeriod: [Dayjs, Dayjs] = period ?? [dayjs(`${data.from}-01`), dayjs(`${data.to}-01`)];

  const columnsOfMonths: TableColumnsType<Month> = [
    ...monthColumns<Month>(t, lang),
    {
      title: t('detail.subscription.roaming'),
      key: 'roaming',
      align: 'right',
      render: (_: unknown, m: Month) =>
        euros(m.roamingCost) || m.roamingDataMb || m.roamingVoiceMinutes
          ? t('detail.subscription.roamingValue', {
              cost: money(m.roamingCost),
              minutes: formatCount(m.roamingVoiceMinutes, lang),
              gb: formatGb(m.roamingDataMb, lang),
            })
          : '',
    },
  ];
  const canOpenInvoices = permissions.includes('invoices.upload');
  const invoiceColumns: TableColumnsType<InvoiceRow> = [
    {
      title: t('detail.billingMonth'),
      dataIndex: 'month',
      render: (v: string | null) => (v ? formatMonth(v, lang) : ''),
    },
    {
      title: t('invoices.table.number'),
      dataIndex: 'invoiceNumber',
      render: (v: string | null, row) =>
        canOpenInvoices ? (
          <Link to={detailPath(base, 'invoice', row.invoiceId)} data-testid="invoice-link">
            {v ?? row.invoiceId}
          </Link>
        ) : (
          (v ?? '')
        ),
    },
    {
      title: t('invoices.table.date'),
      dataIndex: 'invoiceDate',
      render: (v: string | null) => formatDate(v, lang),
    },
    { title: t('invoices.table.operator'), dataIndex: 'operatorName', render: (v: string | null) => v ?? '' },
    { title: t('detail.line.amount'), dataIndex: 'amount', align: 'right', render: money },
  ];

  const plan = data.currentPlan;
  return (
    <div data-testid="subscription-detail-page">
      <PageHeading title={t('detail.subscription.title', { number: data.phoneNumber })} />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Row gutter={[16, 16]}>
          <Col xs={24} xl={14}>
            <Card size="small" style={{ height: '100%' }}>
              <Descriptions
                size="small"
                column={{ xs: 1, md: 2 }}
                data-testid="subscription-header"
                items={[
                  { key: 'number', label: t('dashboards.phoneNumber'), children: data.phoneNumber },
                  { key: 'user', label: t('dashboards.user'), children: data.userName ?? '' },
                  { key: 'operator', label: t('invoices.table.operator'), children: data.operatorName },
                  { key: 'client', label: t('invoices.table.client'), children: data.clientName },
                  {
                    key: 'subCompany',
                    label: t('dashboards.subCompany'),
                    children: data.subCompanyName ?? '',
                  },
                  {
                    key: 'costCenter',
                    label: t('dashboards.costCenter'),
                    children: data.costCenterName ?? '',
                  },
                  {
                    key: 'plan',
                    label: t('detail.plan'),
                    children: plan ? (
                      <span data-testid="subscription-plan">
                        {plan.name}{' '}
                        <Typography.Text type="secondary">
                          {t(
                            plan.contractPrice
                              ? 'detail.subscription.feeContract'
                              : 'detail.subscription.fee',
                            {
                              fee: money(plan.monthlyFee),
                            },
                          )}
                        </Typography.Text>
                      </span>
                    ) : (
                      t('common.notSet')
                    ),
                  },
                  {
                    key: 'seen',
                    label: t('detail.subscription.seen'),
                    children: `${formatMonth(data.firstSeenMonth, lang)} – ${formatMonth(data.lastSeenMonth, lang)}`,
                  },
                ]}
              />
            </Card>
          </Col>
          <Col xs={24} xl={10}>
            <FindingCard
              finding={data.finding}
              visible={permissions.includes('optimization.view')}
              lang={lang}
            />
          </Col>
        </Row>
        <ChartCard<Month>
          title={t('detail.subscription.months')}
          testId="subscription-months"
          option={trend}
          rows={data.months}
          columns={columnsOfMonths}
          rowKey="month"
          height={260}
        />
        <Row gutter={[16, 16]}>
          <Col xs={24} xxl={12}>
            <CategoryCard
              byCategory={data.byCategory}
              lang={lang}
              testId="subscription-categories"
              height={260}
              extra={
                <MonthRangePicker
                  size="small"
                  value={shownPeriod}
                  onChange={onPeriod}
                  style={{ marginRight: 8, width: 220 }}
                  testId="subscription-period"
                />
              }
            />
          </Col>
          <Col xs={24} xxl={12}>
            <Card title={t('detail.subscription.invoices')} size="small" style={{ height: '100%' }}>
              <Table<InvoiceRow>
                size="small"
                rowKey="invoiceId"
                columns={invoiceColumns}
                dataSource={data.invoices}
                pagination={data.invoices.length > 12 ? { pageSize: 12, showSizeChanger: false } : false}
                locale={{ emptyText: <Empty description={t('detail.subscription.noInvoices')} /> }}
                data-testid="subscription-invoices"
              />
            </Card>
          </Col>
        </Row>
      </Space>
    </div>
  );
}

/** The optimization finding: kind, best plan, saving, reason and mark; or "not optimized yet". */
function FindingCard({ finding, visible, lang }: { finding: Finding | null; visible: boolean; lang: Lang }) {
  const { t } = useTranslation();
  if (!visible) return null;
  const money = (v: string) => formatMoney(euros(v), lang);
  return (
    <Card
      title={t('detail.finding.title')}
      size="small"
      style={{ height: '100%' }}
      data-testid="subscription-finding"
    >
      {!finding ? (
        <Empty description={t('detail.finding.none')} data-testid="finding-none" />
      ) : (
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          <Space wrap>
            <Tag color={KIND_COLOR[finding.kind]} data-testid="finding-kind">
              {t(`detail.finding.kind.${finding.kind}`)}
            </Tag>
            {finding.mark && (
              <Tag color={finding.mark.status === 'realised' ? 'green' : 'blue'} data-testid="finding-mark">
                {finding.mark.status === 'realised'
                  ? t('detail.finding.realised', {
                      month: finding.mark.realisedMonth ? formatMonth(finding.mark.realisedMonth, lang) : '',
                    })
                  : t('detail.finding.marked', { date: formatDate(finding.mark.markedAt, lang) })}
              </Tag>
            )}
          </Space>
          <Descriptions
            size="small"
            column={1}
            items={[
              {
                key: 'current',
                label: t('detail.finding.current'),
                children: `${finding.currentPlan ?? ''} · ${money(finding.currentMonthlyCost)}`,
              },
              ...(finding.kind === 'optimized'
                ? [
                    {
                      key: 'best',
                      label: t('detail.finding.best'),
                      children: `${finding.bestPlan ?? ''} · ${money(finding.bestMonthlyCost)}`,
                    },
                  ]
                : []),
              ...(finding.kind === 'unoptimized'
                ? []
                : [
                    {
                      key: 'saving',
                      label: t('detail.finding.saving'),
                      children: (
                        <strong data-testid="finding-saving">
                          {t('detail.finding.savingValue', {
                            monthly: money(finding.monthlySaving),
                            yearly: money(finding.yearlySaving),
                          })}
                        </strong>
                      ),
                    },
                  ]),
              { key: 'reason', label: t('detail.finding.reason'), children: finding.reason },
              {
                key: 'based',
                label: t('detail.finding.basedOn'),
                children: t('detail.finding.basedOnValue', {
                  count: finding.monthsUsed,
                  date: formatDate(finding.optimizedAt, lang),
                }),
              },
            ]}
          />
        </Space>
      )}
    </Card>
  );
}
