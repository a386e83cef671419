import { Card, Flex, Switch, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { type Lang, type TopUser } from '@kulu/shared';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import { NO_SORT } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { ChartCard } from '../../components/chart-card';
import { topUsersOption } from '../../lib/chart-options';
import { exportTopUsers, topUsersQuery, type TopUsersParams } from './api';
import { ReportHeading } from '../../components/report-heading';
import { SliceFilters, useClientChoice } from '../../components/slice-filters';
import { CostTotals } from './cost-totals';
import './texts';
import { useReportExport } from '../../lib/use-report-export';

const MONTH = 'YYYY-MM';

interface Filters {
  clientId?: number;
  period?: [Dayjs, Dayjs] | null;
  subCompanyId?: number;
  optimizableOnly?: boolean;
}

/**
 * Top Users (spec §2 reports, issue 12): the subscriptions by cost over a period, most expensive
 * first, with "only optimizable costs"; admins and consultants pick the client, client users see
 * theirs within their Scope. A totals line and the Excel export of exactly what the filters show.
 */
export function TopUsersPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, onPageChange, search, setSearch, submitSearch, patch } = usePagedState<never, Filters>(
    NO_SORT,
    {},
  );
  const { provider, ready } = useClientChoice(state.clientId);
  const params: TopUsersParams = {
    clientId: provider ? state.clientId : undefined,
    from: state.period?.[0].format(MONTH),
    to: state.period?.[1].format(MONTH),
    subCompanyId: state.subCompanyId,
    optimizableOnly: state.optimizableOnly,
    q: state.q || undefined,
    page: state.page,
    pageSize: state.pageSize,
  };
  const list = useQuery(topUsersQuery(params, ready));
  const data = list.data;
  // The chart: the ten most expensive of the filters (not of the search or the page shown).
  const top = useQuery(topUsersQuery({ ...params, q: undefined, page: 1, pageSize: 10 }, ready));
  const topRows = top.data?.items ?? [];
  const shownPeriod: [Dayjs, Dayjs] | null =
    state.period ?? (data ? [dayjs(`${data.from}-01`), dayjs(`${data.to}-01`)] : null);
  const money = (v: string) => formatMoney(Number(v), lang);

  const exportFile = useReportExport(() => exportTopUsers(params));

  const columns: PagedColumn<TopUser>[] = [
    { key: 'rank', dataIndex: 'rank', title: t('reports.topUsers.rank'), width: 80, align: 'right' },
    ...subscriptionColumns<TopUser>(t),
    moneyColumn('cost', t('dashboards.cost'), money),
  ];

  return (
    <div data-testid="top-users-page">
      <ReportHeading
        title={t('menu.reports.topUsers')}
        exportLabel={t('reports.topUsers.export')}
        exportFile={exportFile}
        disabled={!data?.total}
        testId="top-users-export"
      />
      <Typography.Paragraph type="secondary">{t('reports.topUsers.help')}</Typography.Paragraph>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Flex gap={16} wrap align="center" data-testid="top-users-filters">
          <SliceFilters
            testId="top-users"
            clientId={state.clientId}
            onClientChange={(id) => patch({ clientId: id, period: null, subCompanyId: undefined })}
            period={shownPeriod}
            onPeriodChange={(p) => patch({ period: p })}
            subCompanyId={state.subCompanyId}
            onSubCompanyChange={(v) => patch({ subCompanyId: v })}
          />
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
        </Flex>
      </Card>
      {ready && (
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
            rowKey={(r) => String(r.subscriptionId)}
            emptyText={t('reports.topUsers.empty')}
            height={320}
            columns={columns.filter((c) => c.key !== 'subCompanyName' && c.key !== 'costCenterName')}
          />
        </div>
      )}
      {ready ? (
        <PagedTable<TopUser>
          testId="top-users-table"
          query={list}
          state={state}
          onPageChange={onPageChange}
          columns={columns}
          rowKey="subscriptionId"
          emptyText={state.q ? t('dashboards.noMatches') : t('reports.topUsers.empty')}
          toolbar={
            <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('reports.topUsers.search')}
                width={320}
              />
              {data && <CostTotals totals={data.totals} testId="top-users-totals" />}
            </Flex>
          }
        />
      ) : (
        <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
      )}
    </div>
  );
}
