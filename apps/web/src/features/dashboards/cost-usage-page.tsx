import { useMemo, useState } from 'react';
import { Button, Col, Row, Space, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { detailPath, USAGE_TYPES, type Lang, type UsageType } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { formatMoney } from '../../lib/format';
import { routeId } from '../../lib/route-id';
import { useSession } from '../../lib/session';
import { costElementChoicesQuery, costUsageQuery } from './api';
import { ChartCard } from '../../components/chart-card';
import {
  moneyColumn,
  moneyOf,
  monthColumns,
  sliceColumns,
  subscriptionColumns,
} from '../../components/report-columns';
import type { ChartClick } from '../../components/echart';
import { SubscriptionsDrawer, type SubscriptionSlice } from './subscriptions-drawer';
import { FilterBar, SelectField } from '../../components/filter-fields';
import { shownPeriodOf, SliceFilters, useProvider, useSlice } from '../../components/slice-filters';
import { FiguresState, NoInvoicesHint, TotalCard } from './dashboard-parts';
import { UnreconciledNotice } from './unreconciled-notice';
import {
  categoryOption,
  clickedId,
  trendSeriesId,
  changePercent,
  euros,
  formatChange,
  formatCount,
  formatGb,
  formatMonth,
  categoryName,
  topUsersOption,
  trendOption,
} from '../../lib/chart-options';
import type {
  CostUsage,
  CostUsageCategoryRow as Category,
  CostUsageMonthRow as Month,
  CostUsageQuery,
  CostUsageUserRow as User,
} from './types';

type CostCenter = CostUsage['byCostCenter'][number];
type SubCompany = CostUsage['bySubCompany'][number];
/** Opens the drawer on a slice of the figures (`title` names the slice). */
type Drill = (title: string, slice: Partial<CostUsageQuery>) => void;

/**
 * Cost and Usage (spec §2 Customer Dashboard): the company's own figures, or a chosen client's
 * for admins and consultants. Filters by period, sub-company, cost center, usage type and cost
 * category; totals with the like-with-like change against the previous period, the trend over
 * months, cost by category, sub-company and cost center, and top users. A bar, slice or table row
 * opens the subscriptions behind it in a drawer ("show all" lists every user).
 */
export function CostUsagePage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const provider = useProvider();

  // A provider opens a client's dashboard from the portfolio with `?clientId=`.
  const [searchParams] = useSearchParams();
  const slice = useSlice(
    provider ? (routeId(searchParams.get('clientId') ?? undefined) ?? undefined) : undefined,
  );
  const { subCompanyId, ready } = slice;
  const [costCategoryId, setCostCategoryId] = useState<number | undefined>();
  const [costCenterId, setCostCenterId] = useState<number | undefined>();
  const [costElementId, setCostElementId] = useState<number | undefined>();
  const [usageType, setUsageType] = useState<UsageType | undefined>();
  const [drawer, setDrawer] = useState<SubscriptionSlice | null>(null);

  const params: CostUsageQuery = {
    // No period chosen: the API's, the twelve months up to the latest with costs.
    ...slice.params,
    costCenterId,
    costCategoryId,
    costElementId,
    usageType,
  };
  const figures = useQuery(costUsageQuery(params, lang, ready));
  const filtered = [subCompanyId, costCenterId, costCategoryId, costElementId, usageType].some(
    (v) => v !== undefined,
  );
  // The cost elements with cost under the other filters (the spec's cost-element filter).
  const elementChoices = useQuery(costElementChoicesQuery(params, ready));
  // The category and cost center choices: those of the period without those filters (the same
  // query as the figures while none is chosen).
  const unfiltered = useQuery(
    costUsageQuery({ ...params, costCategoryId: undefined, costCenterId: undefined }, lang, ready),
  );
  const categoryChoices = (unfiltered.data?.byCategory ?? []).filter(
    (c): c is Category & { costCategoryId: number } =>
      c.costCategoryId !== null && (!usageType || c.usageType === usageType),
  );
  const costCenterChoices = (unfiltered.data?.byCostCenter ?? []).filter(
    (c): c is CostCenter & { costCenterId: number } => c.costCenterId !== null,
  );

  const chooseClient = (id: number | undefined) => {
    slice.filters.onClientChange(id);
    setCostCenterId(undefined);
    setCostCategoryId(undefined);
    setCostElementId(undefined);
    setUsageType(undefined);
  };
  const drill: Drill = (title, slice) => setDrawer({ title, filters: { ...params, ...slice } });

  return (
    <div data-testid="cost-usage-page">
      <PageHeading title={t('menu.costAndUsage')} />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FilterBar testId="cost-usage-filters">
          <SliceFilters
            testId="dashboard"
            {...slice.filters}
            onClientChange={chooseClient}
            period={shownPeriodOf(slice.period, figures.data)}
            onSubCompanyChange={(v) => {
              slice.filters.onSubCompanyChange(v);
              setCostCenterId(undefined);
            }}
          />
          {costCenterChoices.length > 0 && (
            <SelectField<number>
              label={t('dashboards.costCenter')}
              placeholder={t('dashboards.allCostCenters')}
              search
              value={costCenterId}
              onChange={setCostCenterId}
              options={costCenterChoices.map((c) => ({ value: c.costCenterId, label: c.name }))}
              disabled={!ready}
              testId="dashboard-cost-center"
            />
          )}
          <SelectField<UsageType>
            label={t('dashboards.usageType')}
            placeholder={t('dashboards.allUsageTypes')}
            minWidth={180}
            value={usageType}
            onChange={(v) => {
              setUsageType(v);
              setCostCategoryId(undefined);
            }}
            options={USAGE_TYPES.map((u) => ({ value: u, label: t(`dashboards.usageTypes.${u}`) }))}
            disabled={!ready}
            testId="dashboard-usage-type"
          />
          <SelectField<number>
            label={t('dashboards.costCategory')}
            placeholder={t('dashboards.allCategories')}
            value={costCategoryId}
            onChange={setCostCategoryId}
            options={categoryChoices.map((c) => ({ value: c.costCategoryId, label: c.name }))}
            disabled={!ready}
            testId="dashboard-cost-category"
          />
          <SelectField<number>
            label={t('dashboards.costElement')}
            placeholder={t('dashboards.allCostElements')}
            search
            value={costElementId}
            onChange={setCostElementId}
            options={(elementChoices.data ?? []).map((e) => ({ value: e.costElementId, label: e.name }))}
            disabled={!ready}
            testId="dashboard-cost-element"
          />
        </FilterBar>

        <FiguresState
          ready={ready}
          query={figures}
          clientFirst={t('dashboards.clientFirst')}
          testId="dashboard"
        >
          {(data) =>
            // Nothing at all in the period and nothing filtered out: no invoice has come in yet.
            !filtered && noFigures(data) ? (
              <NoInvoicesHint testId="dashboard" />
            ) : (
              <Figures data={data} lang={lang} drill={drill} />
            )
          }
        </FiguresState>
      </Space>
      <SubscriptionsDrawer slice={drawer} lang={lang} onClose={() => setDrawer(null)} />
    </div>
  );
}

/** A period without a cent or a unit of use. */
const noFigures = (data: CostUsage) =>
  euros(data.totalCost) === 0 &&
  data.months.every((m) => euros(m.cost) === 0 && !m.voiceMinutes && !m.sms && !m.dataMb);

function Figures({ data, lang, drill }: { data: CostUsage; lang: Lang; drill: Drill }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const base = useSession()?.basePath ?? '';
  const total = euros(data.totalCost);
  const { comparison } = data;
  const change = comparison ? changePercent(euros(comparison.cost), euros(comparison.previousCost)) : null;
  const span = data.months.length;
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
      withCost(data.byCategory).map((c) => ({
        ...c,
        name: categoryName(names, c.costCategoryId, texts),
        id: c.costCategoryId === null ? undefined : String(c.costCategoryId),
      })),
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
        data.byUser.items.map((u) => ({ name: userLabel(u), cost: u.cost, id: String(u.subscriptionId) })),
        lang,
        texts,
      ),
    [data.byUser.items, lang, texts],
  );

  const number = (v: number) => formatCount(v, lang);
  const userColumns = [
    ...subscriptionColumns<User>(t),
    moneyColumn<User>('cost', t('dashboards.cost'), moneyOf(lang)),
  ];

  const monthTitle = (m: string) => formatMonth(m, lang);
  const drillMonth = (month: string, costCategoryId?: number | null) => {
    const category =
      costCategoryId == null ? undefined : categoryRows.find((c) => c.costCategoryId === costCategoryId);
    drill(category ? `${monthTitle(month)} · ${category.name}` : monthTitle(month), {
      from: month,
      to: month,
      ...(category ? { costCategoryId: category.costCategoryId ?? undefined } : {}),
    });
  };
  const onTrendClick = ({ dataIndex, seriesId }: ChartClick) => {
    const month = data.months[dataIndex]?.month;
    if (!month) return;
    const id = data.byCategory.find((c) => trendSeriesId(c.costCategoryId) === seriesId)?.costCategoryId;
    drillMonth(month, id);
  };
  const openUser = (subscriptionId: number) =>
    void navigate(detailPath(base, 'subscription', subscriptionId));
  const slice = { total, lang, drill };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <UnreconciledNotice data={data} lang={lang} />
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
            {change === null || !comparison ? (
              t('dashboards.noComparable')
            ) : (
              <>
                {change > 0 ? <ArrowUpOutlined /> : change < 0 ? <ArrowDownOutlined /> : null}{' '}
                {t(
                  comparison.months < span
                    ? 'dashboards.changeFromSameMonths'
                    : 'dashboards.changeFromPrevious',
                  {
                    change: formatChange(change, lang),
                    previous: formatMoney(euros(comparison.previousCost), lang),
                  },
                )}
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
        columns={monthColumns<Month>(t, lang)}
        rowKey="month"
        onChartClick={onTrendClick}
        onRowClick={(m) => drillMonth(m.month)}
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <SliceCard<Category & SliceRow, 'costCategoryId'>
            field="costCategoryId"
            title={t('dashboards.byCategory')}
            nameTitle={t('dashboards.costCategory')}
            testId="dashboard-categories"
            option={categories}
            rows={categoryRows}
            {...slice}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard<User>
            title={t('dashboards.topUsers')}
            testId="dashboard-users"
            option={users}
            rows={data.byUser.items}
            columns={userColumns}
            rowKey="subscriptionId"
            onChartClick={({ data: item }) => {
              const id = Number(clickedId(item));
              if (id) openUser(id);
            }}
            onRowClick={(u) => openUser(u.subscriptionId)}
            extra={
              data.byUser.total > 0 ? (
                <Space size={8} style={{ marginRight: 8 }}>
                  {data.byUser.total > data.byUser.items.length && (
                    <Typography.Text type="secondary">
                      {t('dashboards.topOf', {
                        shown: data.byUser.items.length,
                        total: number(data.byUser.total),
                      })}
                    </Typography.Text>
                  )}
                  <Button
                    size="small"
                    onClick={() => drill(t('dashboards.allUsers'), {})}
                    data-testid="dashboard-show-all"
                  >
                    {t('dashboards.showAll')}
                  </Button>
                </Space>
              ) : undefined
            }
          />
        </Col>
      </Row>
      <BarsSliceCard<CostCenter, 'costCenterId'>
        field="costCenterId"
        title={t('dashboards.byCostCenter')}
        nameTitle={t('dashboards.costCenter')}
        noneName={t('dashboards.noCostCenter')}
        testId="dashboard-cost-centers"
        rows={data.byCostCenter}
        minHeight={200}
        {...slice}
      />
      <BarsSliceCard<SubCompany, 'subCompanyId'>
        field="subCompanyId"
        title={t('dashboards.bySubCompany')}
        nameTitle={t('dashboards.subCompany')}
        noneName={t('dashboards.noSubCompany')}
        testId="dashboard-sub-companies"
        rows={data.bySubCompany}
        minHeight={160}
        minBars={2}
        {...slice}
      />
      <Typography.Text type="secondary">{t('dashboards.drillHint')}</Typography.Text>
    </Space>
  );
}

const userLabel = (u: User) => u.userName || u.phoneNumber;

/** A chart row of a slice: its name, cost and the id a chart click names (none for the row of none). */
type SliceRow = { name: string; cost: string; id?: string };

interface SliceCardProps<R, K> {
  field: K;
  title: string;
  nameTitle: string;
  testId: string;
  option: object;
  rows: readonly R[];
  height?: number;
  total: number;
  lang: Lang;
  drill: Drill;
}

/** A horizontal bar chart's height for `bars` bars (at most ten shown at once), at least `min`. */
const barsHeight = (bars: number, min: number) => Math.max(min, Math.min(bars, 10) * 32 + 40);

/**
 * A slice of the figures by `field` (cost category, cost center, sub-company): its chart and its
 * table with each one's share of the period's `total`; a bar, slice or row opens its subscriptions.
 */
function SliceCard<R extends SliceRow & Record<K, number | null>, K extends keyof CostUsageQuery & string>({
  field,
  title,
  nameTitle,
  testId,
  option,
  rows,
  height,
  total,
  lang,
  drill,
}: SliceCardProps<R, K>) {
  const { t } = useTranslation();
  const open = (row: R) => {
    const id = row[field];
    if (id !== null) drill(row.name, { [field]: id });
  };
  return (
    <ChartCard<R>
      title={title}
      testId={testId}
      option={option}
      rows={rows}
      columns={sliceColumns<R>(t, lang, nameTitle, total)}
      rowKey={field}
      onChartClick={({ data: item }: ChartClick) => {
        const row = rows.find((r) => r.id !== undefined && r.id === clickedId(item));
        if (row) open(row);
      }}
      onRowClick={open}
      height={height}
    />
  );
}

/**
 * A slice of the figures drawn as bars (cost center, sub-company): its rows with cost in the period
 * (`noneName` names the row of none), the ten costliest as bars at least `minHeight` high; no card
 * when fewer than `minBars` rows have cost (one sub-company says nothing the totals do not).
 */
function BarsSliceCard<
  R extends { cost: string; name: string } & Record<K, number | null>,
  K extends keyof CostUsageQuery & string,
>({
  rows,
  noneName,
  minHeight,
  minBars = 0,
  ...card
}: Omit<SliceCardProps<R & SliceRow, K>, 'rows' | 'option' | 'height'> & {
  rows: readonly R[];
  noneName: string;
  minHeight: number;
  minBars?: number;
}) {
  const { t } = useTranslation();
  const { field, lang } = card;
  const bars = useMemo(() => costRows(rows, (r) => r[field], noneName), [rows, field, noneName]);
  const option = useMemo(() => topUsersOption(bars, lang, { cost: t('dashboards.cost') }), [bars, lang, t]);
  if (bars.length < minBars) return null;
  return (
    <SliceCard<R & SliceRow, K>
      {...card}
      rows={bars}
      option={option}
      height={barsHeight(bars.length, minHeight)}
    />
  );
}

/** The rows of a slice with cost in the period (a slice without is noise in a chart). */
const withCost = <R extends { cost: string }>(rows: readonly R[]) => rows.filter((c) => euros(c.cost) !== 0);

/**
 * The slices of a chart with cost in the period, named (`noneName` for the rows of none, e.g. no
 * cost center) and with the id a chart click names.
 */
const costRows = <R extends { cost: string; name: string }>(
  rows: readonly R[],
  idOf: (row: R) => number | null,
  noneName: string,
) =>
  withCost(rows).map((c) => ({
    ...c,
    name: idOf(c) === null ? noneName : c.name,
    id: idOf(c) === null ? undefined : String(idOf(c)),
  }));
