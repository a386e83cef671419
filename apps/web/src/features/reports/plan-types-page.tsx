import { Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Lang, type PlanTypeRow } from '@kulu/shared';
import { formatMoney } from '../../lib/format';
import { ChartCard } from '../../components/chart-card';
import { categoryOption } from '../../lib/chart-options';
import { exportPlanTypes, planTypesQuery, type PlanTypesParams } from './api';
import { ReportHeading } from '../../components/report-heading';
import { shownPeriodOf, SliceFilters, useSlice } from '../../components/slice-filters';
import { FilterBar } from '../../components/filter-fields';
import { CostTotals } from './cost-totals';
import './texts';

/**
 * Base Plan Types (spec §2 reports, issue 12): the subscriptions and their cost per base plan
 * group and plan group over a period, as a chart with its table view; admins and consultants pick
 * the client. Totals and the Excel export of exactly what the filters show.
 */
export function PlanTypesPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const slice = useSlice();
  const { ready } = slice;
  const params: PlanTypesParams = slice.params;
  const list = useQuery(planTypesQuery(params, ready));
  const data = list.data;
  const money = (v: string) => formatMoney(Number(v), lang);
  const group = (name: string | null) => name ?? t('reports.planTypes.noGroup');
  const label = (r: PlanTypeRow) => `${group(r.basePlanGroupName)} · ${group(r.planGroupName)}`;

  return (
    <div data-testid="plan-types-page">
      <ReportHeading
        title={t('menu.reports.basePlanTypes')}
        exportLabel={t('reports.planTypes.export')}
        exportRequest={() => exportPlanTypes(params)}
        disabled={!data?.items.length}
        testId="plan-types-export"
        help={t('reports.planTypes.help')}
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FilterBar>
          <SliceFilters testId="plan-types" {...slice.filters} period={shownPeriodOf(slice.period, data)} />
          {data && <CostTotals totals={data.totals} testId="plan-types-totals" />}
        </FilterBar>
        {!ready ? (
          <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
        ) : (
          <ChartCard<PlanTypeRow>
            title={t('reports.planTypes.chart')}
            testId="plan-types-chart"
            option={categoryOption(
              (data?.items ?? []).map((r) => ({ name: label(r), cost: r.cost })),
              lang,
            )}
            rows={data?.items ?? []}
            rowKey={(r) => `${r.basePlanGroupId ?? 0}-${r.planGroupId ?? 0}`}
            emptyText={t('reports.planTypes.empty')}
            height={360}
            columns={[
              {
                key: 'basePlanGroupName',
                title: t('reports.planTypes.basePlanGroup'),
                render: (_v, r) => group(r.basePlanGroupName),
              },
              {
                key: 'planGroupName',
                title: t('reports.planTypes.planGroup'),
                render: (_v, r) => group(r.planGroupName),
              },
              {
                key: 'subscriptions',
                dataIndex: 'subscriptions',
                title: t('reports.planTypes.subscriptions'),
                align: 'right',
              },
              {
                key: 'cost',
                dataIndex: 'cost',
                title: t('reports.planTypes.cost'),
                align: 'right',
                render: (v: string) => money(v),
              },
            ]}
          />
        )}
      </Space>
    </div>
  );
}
