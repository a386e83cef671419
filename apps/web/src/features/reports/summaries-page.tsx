import { useState } from 'react';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Card, Segmented, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  type CostSummaryList,
  type CostSummaryRow,
  type Lang,
  type UsageSummaryList,
  type UsageSummaryRow,
} from '@kulu/shared';
import { formatMoney, formatNumber } from '../../lib/format';
import { FilterBar, FilterField } from '../../components/filter-fields';
import { stackedBarsOption } from '../../lib/chart-options';
import { EChart } from '../../components/echart';
import { summaryQuery, type SummaryKind, type SummaryParams } from '../../lib/reports-api';
import { exportSummary } from './api';
import { ReportHeading } from '../../components/report-heading';
import { shownPeriodOf, SliceFilters, useSlice } from '../../components/slice-filters';
import './texts';

type Row = CostSummaryRow | UsageSummaryRow;

/**
 * Optimizable Cost Summaries and Optimizable Usage Summaries (spec §2 reports, issue 12): for the
 * entire organization or by cost center over a month range, with a totals row and the Excel export;
 * admins and consultants pick the client.
 */
function SummaryPage({ kind }: { kind: SummaryKind }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const slice = useSlice();
  const { ready } = slice;
  const [groupBy, setGroupBy] = useState<SummaryParams['groupBy']>('organization');
  const params: SummaryParams = { ...slice.params, groupBy };
  const list = useQuery(summaryQuery(kind, params, ready));
  const data = list.data as CostSummaryList | UsageSummaryList | undefined;
  const money = (v: string) => formatMoney(Number(v), lang);
  const num = (v: number) => formatNumber(v, lang);
  const gb = (mb: number) => formatNumber(Math.round((mb / 1024) * 100) / 100, lang);
  const nameOf = (r: Row) =>
    groupBy === 'organization'
      ? t('reports.summaries.organization')
      : (r.name ?? t('reports.summaries.noCostCenter'));

  const rows = (data?.items ?? []) as Row[];
  const chart =
    kind === 'cost-summaries'
      ? stackedBarsOption(
          rows.map(nameOf),
          [
            {
              name: t('reports.summaries.optimizableCost'),
              values: rows.map((r) => (r as CostSummaryRow).optimizableCost),
            },
            {
              name: t('reports.summaries.otherCost'),
              values: rows.map((r) => (r as CostSummaryRow).otherCost),
            },
          ],
          lang,
        )
      : stackedBarsOption(
          rows.map(nameOf),
          [
            {
              name: t('reports.summaries.usageCost'),
              values: rows.map((r) => (r as UsageSummaryRow).usageCost),
            },
          ],
          lang,
        );

  const right = { align: 'right' as const, onCell: () => ({ style: { whiteSpace: 'nowrap' as const } }) };
  const columns: TableColumnsType<Row> =
    kind === 'cost-summaries'
      ? [
          { key: 'name', title: t('reports.summaries.name'), render: (_v, r) => nameOf(r) },
          ...(['optimizableCost', 'otherCost', 'totalCost'] as const).map((k) => ({
            key: k,
            // Other cost holds what no plan decides, credits too (so it can be negative): said where it shows.
            title:
              k === 'otherCost' ? (
                <Tooltip title={t('reports.summaries.otherCostHelp')}>
                  <span data-testid="other-cost-help">
                    {t('reports.summaries.otherCost')} <QuestionCircleOutlined />
                  </span>
                </Tooltip>
              ) : (
                t(`reports.summaries.${k}`)
              ),
            render: (_v: unknown, r: Row) => money((r as CostSummaryRow)[k]),
            ...right,
          })),
        ]
      : [
          { key: 'name', title: t('reports.summaries.name'), render: (_v, r) => nameOf(r) },
          ...(['voiceMinutes', 'roamingVoiceMinutes', 'sms'] as const).map((k) => ({
            key: k,
            title: t(`reports.summaries.${k}`),
            render: (_v: unknown, r: Row) => num((r as UsageSummaryRow)[k]),
            ...right,
          })),
          ...(['dataMb', 'roamingDataMb'] as const).map((k) => ({
            key: k,
            title: t(`reports.summaries.${k === 'dataMb' ? 'dataGb' : 'roamingDataGb'}`),
            render: (_v: unknown, r: Row) => gb((r as UsageSummaryRow)[k]),
            ...right,
          })),
          {
            key: 'usageCost',
            title: t('reports.summaries.usageCost'),
            render: (_v, r) => money((r as UsageSummaryRow).usageCost),
            ...right,
          },
        ];

  const totalsRow = () => {
    if (!data || !data.items.length) return null;
    const cells =
      kind === 'cost-summaries'
        ? (['optimizableCost', 'otherCost', 'totalCost'] as const).map((k) =>
            money((data as CostSummaryList).totals[k]),
          )
        : [
            num((data as UsageSummaryList).totals.voiceMinutes),
            num((data as UsageSummaryList).totals.roamingVoiceMinutes),
            num((data as UsageSummaryList).totals.sms),
            gb((data as UsageSummaryList).totals.dataMb),
            gb((data as UsageSummaryList).totals.roamingDataMb),
            money((data as UsageSummaryList).totals.usageCost),
          ];
    return (
      <Table.Summary.Row data-testid="summary-totals">
        <Table.Summary.Cell index={0}>
          <Typography.Text strong>{t('reports.summaries.total')}</Typography.Text>
        </Table.Summary.Cell>
        {cells.map((c, i) => (
          <Table.Summary.Cell key={i} index={i + 1} align="right">
            <Typography.Text strong>{c}</Typography.Text>
          </Table.Summary.Cell>
        ))}
      </Table.Summary.Row>
    );
  };

  return (
    <div data-testid={`${kind}-page`}>
      <ReportHeading
        title={t(kind === 'cost-summaries' ? 'menu.reports.costSummaries' : 'menu.reports.usageSummaries')}
        exportLabel={t('reports.summaries.export')}
        exportRequest={() => exportSummary(kind, params)}
        disabled={!data?.items.length}
        testId="summary-export"
        help={t(kind === 'cost-summaries' ? 'reports.summaries.costHelp' : 'reports.summaries.usageHelp')}
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FilterBar>
          <SliceFilters testId="summary" {...slice.filters} period={shownPeriodOf(slice.period, data)} />
          <FilterField label={t('reports.summaries.groupBy')}>
            <Segmented<SummaryParams['groupBy']>
              value={groupBy}
              onChange={setGroupBy}
              disabled={!ready}
              options={[
                { value: 'organization', label: t('reports.summaries.organization') },
                { value: 'costCenter', label: t('reports.summaries.costCenter') },
              ]}
              data-testid="summary-group-by"
            />
          </FilterField>
        </FilterBar>
        {!ready ? (
          <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
        ) : (
          <Card>
            {rows.length > 0 && (
              <EChart
                option={chart}
                height={Math.min(420, 80 + Math.min(rows.length, 15) * 28)}
                testId="summary-chart"
              />
            )}
            <Table<Row>
              size="middle"
              loading={list.isFetching}
              dataSource={data?.items ?? []}
              columns={columns}
              rowKey={(r) => String(r.costCenterId ?? 0)}
              pagination={false}
              locale={{ emptyText: t('reports.summaries.empty') }}
              summary={totalsRow}
              scroll={{ x: 'max-content' }}
              data-testid="summary-table"
            />
          </Card>
        )}
      </Space>
    </div>
  );
}

export const CostSummariesPage = () => <SummaryPage kind="cost-summaries" />;
export const UsageSummariesPage = () => <SummaryPage kind="usage-summaries" />;
