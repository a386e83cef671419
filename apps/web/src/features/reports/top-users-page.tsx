import { Flex, Switch, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { TopUser } from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import { NO_SORT } from '../../lib/paging';
import { ChartCard } from '../../components/chart-card';
import { topUsersOption } from '../../lib/chart-options';
import { exportTopUsers, topUsersQuery, type TopUsersParams } from './api';
import { CostTotals } from './cost-totals';
import { SliceReportPage, useSliceReport, type SliceState } from './slice-report';
import './texts';

interface Filters extends SliceState {
  optimizableOnly?: boolean;
}

/**
 * Top Users (spec §2 reports, issue 12): the subscriptions by cost over a period, most expensive
 * first, with "only optimizable costs"; admins and consultants pick the client, client users see
 * theirs within their Scope. A totals line and the Excel export of exactly what the filters show.
 */
export function TopUsersPage() {
  const report = useSliceReport<never, Filters>(NO_SORT);
  const { t, lang, state, patch, ready } = report;
  const params: TopUsersParams = { ...report.params, optimizableOnly: state.optimizableOnly };
  const list = useQuery(topUsersQuery(params, ready));
  const data = list.data;
  // The chart: the ten most expensive of the filters (not of the search or the page shown).
  const top = useQuery(topUsersQuery({ ...params, q: undefined, page: 1, pageSize: 10 }, ready));
  const topRows = top.data?.items ?? [];

  const columns: PagedColumn<TopUser>[] = [
    { key: 'rank', dataIndex: 'rank', title: t('reports.topUsers.rank'), width: 80, align: 'right' },
    ...subscriptionColumns<TopUser>(t),
    moneyColumn('cost', t('dashboards.cost'), report.money),
  ];

  return (
    <SliceReportPage<TopUser, never, Filters>
      report={report}
      testId="top-users"
      title={t('menu.reports.topUsers')}
      texts="reports.topUsers"
      exportRequest={() => exportTopUsers(params)}
      shownPeriod={report.shownPeriod(data)}
      filters={
        <Tooltip title={t('reports.topUsers.optimizableHelp')}>
          <Flex gap={8} align="center">
            <Switch
              checked={!!state.optimizableOnly}
              onChange={(v) => patch({ optimizableOnly: v })}
              disabled={!ready}
              aria-label={t('reports.topUsers.optimizableOnly')}
              data-testid="top-users-optimizable"
            />
            <span>{t('reports.topUsers.optimizableOnly')}</span>
          </Flex>
        </Tooltip>
      }
      chart={
        <div style={{ marginBottom: 16 }}>
          <ChartCard<TopUser>
            title={t('reports.topUsers.chart')}
            testId="top-users-chart"
            option={topUsersOption(
              topRows.map((r) => ({ name: r.userName ?? r.phoneNumber, cost: r.cost })),
              lang,
              { cost: t('dashboards.cost') },
            )}
            rows={topRows}
            rowKey="subscriptionId"
            emptyText={t('reports.topUsers.empty')}
            height={320}
            columns={columns.filter((c) => c.key !== 'subCompanyName' && c.key !== 'costCenterName')}
          />
        </div>
      }
      query={list}
      columns={columns}
      rowKey="subscriptionId"
      totals={data && <CostTotals totals={data.totals} testId="top-users-totals" />}
    />
  );
}
