import { useMemo, useState, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Flex,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Typography,
  type TableColumnsType,
} from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { DASHBOARD_MAX_MONTHS, isProviderRole, type Lang } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { errorText } from '../../lib/form-rules';
import { formatMoney } from '../../lib/format';
import { useSession } from '../../lib/session';
import { clientOptionsQuery, subCompanyOptionsQuery } from '../../lib/organization-api';
import { costUsageQuery } from './api';
import { ChartCard } from './chart-card';
import {
  categoryOption,
  changePercent,
  euros,
  formatChange,
  formatCount,
  formatGb,
  formatMonth,
  categoryName,
  formatShare,
  topUsersOption,
  trendOption,
} from './chart-options';
import type {
  CostUsage,
  CostUsageCategoryRow as Category,
  CostUsageMonthRow as Month,
  CostUsageQuery,
  CostUsageUserRow as User,
} from './types';

type CostCenter = CostUsage['byCostCenter'][number];

const MONTH = 'YYYY-MM';

/** While picking, months more than the API's longest period away from the first pick are off. */
const tooLong = (d: Dayjs, from: Dayjs | undefined) =>
  !!from && Math.abs(d.diff(from, 'month')) >= DASHBOARD_MAX_MONTHS;

/**
 * Cost and Usage (spec §2 Customer Dashboard): the company's own figures, or a chosen client's
 * for admins and consultants. Filters by period, sub-company and cost category; totals with the
 * change against the previous period, the trend over months, cost by category and top users.
 */
export function CostUsagePage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const session = useSession();
  const provider = session ? isProviderRole(session.roleID) : false;

  const [clientId, setClientId] = useState<number | undefined>();
  const [period, setPeriod] = useState<[Dayjs, Dayjs] | null>(null);
  const [subCompanyId, setSubCompanyId] = useState<number | undefined>();
  const [costCategoryId, setCostCategoryId] = useState<number | undefined>();

  const clients = useQuery({ ...clientOptionsQuery(), enabled: provider });
  const subCompanies = useQuery(subCompanyOptionsQuery());
  const subCompanyOptions = (subCompanies.data ?? []).filter((s) => !provider || s.clientId === clientId);

  const ready = !provider || clientId !== undefined;
  const params: CostUsageQuery = {
    clientId: provider ? clientId : undefined,
    // No period chosen: the API's, the twelve months up to the latest with costs.
    from: period?.[0].format(MONTH),
    to: period?.[1].format(MONTH),
    subCompanyId,
    costCategoryId,
  };
  const figures = useQuery(costUsageQuery(params, lang, ready));
  // The category choices: the categories of the period without the category filter (the same
  // query as the figures while no category is chosen).
  const unfiltered = useQuery(costUsageQuery({ ...params, costCategoryId: undefined }, lang, ready));
  const categoryChoices = (unfiltered.data?.byCategory ?? []).filter(
    (c): c is Category & { costCategoryId: number } => c.costCategoryId !== null,
  );

  const chooseClient = (id: number | undefined) => {
    setClientId(id);
    setPeriod(null);
    setSubCompanyId(undefined);
    setCostCategoryId(undefined);
  };

  const data = figures.data;
  const shownPeriod: [Dayjs, Dayjs] | null =
    period ?? (data ? [dayjs(`${data.from}-01`), dayjs(`${data.to}-01`)] : null);

  return (
    <div data-testid="cost-usage-page">
      <PageHeading title={t('menu.costAndUsage')} />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small">
          <Flex gap={16} wrap align="center" data-testid="cost-usage-filters">
            {provider && (
              <FilterField label={t('dashboards.client')}>
                <Select<number>
                  showSearch={{ optionFilterProp: 'label' }}
                  allowClear
                  style={{ minWidth: 260 }}
                  placeholder={t('dashboards.chooseClient')}
                  loading={clients.isLoading}
                  value={clientId}
                  onChange={chooseClient}
                  options={(clients.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
                  data-testid="dashboard-client"
                />
              </FilterField>
            )}
            <FilterField label={t('dashboards.period')}>
              <DatePicker.RangePicker
                picker="month"
                allowClear={false}
                value={shownPeriod}
                onChange={(v) => {
                  if (v?.[0] && v[1]) setPeriod([v[0], v[1]]);
                }}
                disabledDate={(d, info) => tooLong(d, info.from)}
                placeholder={[t('dashboards.from'), t('dashboards.to')]}
                disabled={!ready}
                data-testid="dashboard-period"
              />
            </FilterField>
            {subCompanyOptions.length > 1 && (
              <FilterField label={t('dashboards.subCompany')}>
                <Select<number>
                  allowClear
                  style={{ minWidth: 200 }}
                  placeholder={t('dashboards.allSubCompanies')}
                  value={subCompanyId}
                  onChange={setSubCompanyId}
                  options={subCompanyOptions.map((s) => ({ value: s.id, label: s.name }))}
                  disabled={!ready}
                  data-testid="dashboard-sub-company"
                />
              </FilterField>
            )}
            <FilterField label={t('dashboards.costCategory')}>
              <Select<number>
                allowClear
                style={{ minWidth: 200 }}
                placeholder={t('dashboards.allCategories')}
                value={costCategoryId}
                onChange={setCostCategoryId}
                options={categoryChoices.map((c) => ({ value: c.costCategoryId, label: c.name }))}
                disabled={!ready}
                data-testid="dashboard-cost-category"
              />
            </FilterField>
          </Flex>
        </Card>

        {!ready ? (
          <Card>
            <Empty description={t('dashboards.clientFirst')} data-testid="dashboard-client-first" />
          </Card>
        ) : figures.isError && !data ? (
          <Alert
            type="error"
            showIcon
            title={t('dashboards.loadFailed')}
            description={errorText(t, figures.error)}
            action={
              <Button size="small" onClick={() => void figures.refetch()}>
                {t('common.retry')}
              </Button>
            }
            data-testid="dashboard-error"
          />
        ) : !data ? (
          <Card>
            <Skeleton active paragraph={{ rows: 8 }} data-testid="dashboard-loading" />
          </Card>
        ) : (
          <Figures data={data} lang={lang} />
        )}
      </Space>
    </div>
  );
}

function Figures({ data, lang }: { data: CostUsage; lang: Lang }) {
  const { t } = useTranslation();
  const total = euros(data.totalCost);
  const change = changePercent(total, euros(data.previousTotalCost));
  const { usage } = data;
  const roaming = euros(usage.roamingCost);
  const hasMonths = data.months.some((m) => euros(m.cost) !== 0 || m.voiceMinutes || m.sms || m.dataMb);
  const texts = useMemo(
    () => ({ cost: t('dashboards.cost'), uncategorized: t('dashboards.uncategorized') }),
    [t],
  );
  const names = useMemo(
    () => new Map(data.byCategory.map((c) => [c.costCategoryId, c.name] as const)),
    [data.byCategory],
  );
  const categoryRows = useMemo(
    // Categories without cost in the period are noise in the chart and the table alike.
    () =>
      data.byCategory
        .filter((c) => euros(c.cost) !== 0)
        .map((c) => ({ ...c, name: categoryName(names, c.costCategoryId, texts) })),
    [data.byCategory, names, texts],
  );

  const trend = useMemo(
    () => trendOption(data.months, names, lang, texts),
    [data.months, names, lang, texts],
  );
  const categories = useMemo(() => categoryOption(categoryRows, lang), [categoryRows, lang]);
  const users = useMemo(
    () =>
      topUsersOption(
        data.byUser.items.map((u) => ({ name: userLabel(u), cost: u.cost })),
        lang,
        texts,
      ),
    [data.byUser.items, lang, texts],
  );

  const costCenterRows = useMemo(
    () =>
      data.byCostCenter
        .filter((c) => euros(c.cost) !== 0)
        .map((c) => ({ ...c, name: c.costCenterId === null ? t('dashboards.noCostCenter') : c.name })),
    [data.byCostCenter, t],
  );
  const costCenters = useMemo(
    () => topUsersOption(costCenterRows, lang, texts),
    [costCenterRows, lang, texts],
  );

  const money = (v: string) => formatMoney(euros(v), lang);
  const number = (v: number) => formatCount(v, lang);
  const monthColumns: TableColumnsType<Month> = [
    { title: t('dashboards.month'), dataIndex: 'month', render: (v: string) => formatMonth(v, lang) },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: money },
    { title: t('dashboards.voiceMinutes'), dataIndex: 'voiceMinutes', align: 'right', render: number },
    { title: t('dashboards.sms'), dataIndex: 'sms', align: 'right', render: number },
    {
      title: t('dashboards.dataGb'),
      dataIndex: 'dataMb',
      align: 'right',
      render: (v: number) => formatGb(v, lang),
    },
  ];
  const categoryColumns: TableColumnsType<Category> = [
    { title: t('dashboards.costCategory'), dataIndex: 'name' },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: money },
    {
      title: t('dashboards.share'),
      key: 'share',
      align: 'right',
      render: (_: unknown, r: Category) => (total ? formatShare(euros(r.cost) / total, lang) : ''),
    },
  ];
  const costCenterColumns: TableColumnsType<CostCenter> = [
    { title: t('dashboards.costCenter'), dataIndex: 'name' },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: money },
    {
      title: t('dashboards.share'),
      key: 'share',
      align: 'right',
      render: (_: unknown, r: CostCenter) => (total ? formatShare(euros(r.cost) / total, lang) : ''),
    },
  ];
  const userColumns: TableColumnsType<User> = [
    { title: t('dashboards.user'), dataIndex: 'userName', render: (v: string | null) => v ?? '' },
    { title: t('dashboards.phoneNumber'), dataIndex: 'phoneNumber' },
    { title: t('dashboards.subCompany'), dataIndex: 'subCompanyName', render: (v: string | null) => v ?? '' },
    { title: t('dashboards.costCenter'), dataIndex: 'costCenterName', render: (v: string | null) => v ?? '' },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: money },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Row gutter={[16, 16]} data-testid="dashboard-totals">
        <TotalCard
          title={t('dashboards.totalCost')}
          value={formatMoney(total, lang)}
          testId="dashboard-total-cost"
        >
          <Typography.Text
            type={change === null ? 'secondary' : change > 0 ? 'danger' : 'success'}
            data-testid="dashboard-total-change"
          >
            {change === null ? (
              t('dashboards.noPrevious')
            ) : (
              <>
                {change > 0 ? <ArrowUpOutlined /> : change < 0 ? <ArrowDownOutlined /> : null}{' '}
                {t('dashboards.changeFromPrevious', {
                  change: formatChange(change, lang),
                  previous: formatMoney(euros(data.previousTotalCost), lang),
                })}
              </>
            )}
          </Typography.Text>
        </TotalCard>
        <TotalCard
          title={t('dashboards.voiceMinutes')}
          value={number(usage.voiceMinutes)}
          testId="dashboard-voice"
        >
          <Typography.Text type="secondary">
            {t('dashboards.smsCount', { count: usage.sms, sms: number(usage.sms) })}
          </Typography.Text>
        </TotalCard>
        <TotalCard
          title={t('dashboards.dataGb')}
          value={formatGb(usage.dataMb, lang)}
          testId="dashboard-data"
        />
        <TotalCard
          title={t('dashboards.roamingCost')}
          value={formatMoney(roaming, lang)}
          testId="dashboard-roaming"
        >
          <Typography.Text type="secondary">
            {t('dashboards.roamingUsage', {
              minutes: number(usage.roamingVoiceMinutes),
              gb: formatGb(usage.roamingDataMb, lang),
            })}
          </Typography.Text>
        </TotalCard>
      </Row>
      <ChartCard<Month>
        title={t('dashboards.trend')}
        testId="dashboard-trend"
        option={trend}
        rows={hasMonths ? data.months : []}
        columns={monthColumns}
        rowKey={(m) => m.month}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ChartCard<Category>
            title={t('dashboards.byCategory')}
            testId="dashboard-categories"
            option={categories}
            rows={categoryRows}
            columns={categoryColumns}
            rowKey={(c) => String(c.costCategoryId ?? 'none')}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard<User>
            title={t('dashboards.topUsers')}
            testId="dashboard-users"
            option={users}
            rows={data.byUser.items}
            columns={userColumns}
            rowKey={(u) => String(u.subscriptionId)}
            extra={
              data.byUser.total > data.byUser.items.length ? (
                <Typography.Text type="secondary" style={{ marginRight: 8 }}>
                  {t('dashboards.topOf', {
                    shown: data.byUser.items.length,
                    total: number(data.byUser.total),
                  })}
                </Typography.Text>
              ) : undefined
            }
          />
        </Col>
      </Row>
      <ChartCard<CostCenter>
        title={t('dashboards.byCostCenter')}
        testId="dashboard-cost-centers"
        option={costCenters}
        rows={costCenterRows}
        columns={costCenterColumns}
        rowKey={(c) => String(c.costCenterId ?? 'none')}
        height={Math.max(200, Math.min(costCenterRows.length, 10) * 32 + 40)}
      />
    </Space>
  );
}

const userLabel = (u: User) => u.userName || u.phoneNumber;

/** A labelled filter in the filter bar. */
function FilterField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex align="center" gap={8} wrap>
      <Typography.Text strong>{label}</Typography.Text>
      {children}
    </Flex>
  );
}

/** One of the period's totals: a figure with an optional line below it. */
function TotalCard(props: { title: string; value: string; testId: string; children?: ReactNode }) {
  return (
    <Col xs={24} sm={12} xl={6}>
      <Card size="small" style={{ height: '100%' }}>
        <Statistic title={props.title} value={props.value} data-testid={props.testId} />
        {props.children}
      </Card>
    </Col>
  );
}
