import { Card, Flex, InputNumber, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { UNUSED_MONTHS_MAX, UNUSED_SORTABLE, type Lang, type UnusedSubscription } from '@kulu/shared';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { FilterField } from '../../components/filter-fields';
import { formatMonth } from '../../lib/chart-options';
import { exportUnusedSubscriptions, unusedSubscriptionsQuery, type UnusedParams } from './api';
import { ReportHeading } from '../../components/report-heading';
import { SliceFilters, useClientChoice } from '../../components/slice-filters';
import './texts';
import { useReportExport } from '../../lib/use-report-export';

type SortKey = (typeof UNUSED_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: UNUSED_SORTABLE, defaultSort: 'cost', defaultOrder: 'desc' };

interface Filters {
  clientId?: number;
  subCompanyId?: number;
  months?: number;
}

/**
 * Unused Subscriptions (spec §2 "Unused-Month-Count", issue 12): subscriptions billed in each of
 * the last N months with costs and used in none, N chosen (else the company's setting); what they
 * cost, and the yearly saving of closing them. Admins and consultants pick the client.
 */
export function UnusedSubscriptionsPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, onPageChange, search, setSearch, submitSearch, patch } = usePagedState<SortKey, Filters>(
    SORT,
    {},
  );
  const { provider, ready } = useClientChoice(state.clientId);
  const params: UnusedParams = {
    clientId: provider ? state.clientId : undefined,
    subCompanyId: state.subCompanyId,
    months: state.months,
    q: state.q || undefined,
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    order: state.order,
  };
  const list = useQuery(unusedSubscriptionsQuery(params, ready));
  const data = list.data;
  const money = (v: string) => formatMoney(Number(v), lang);

  const exportFile = useReportExport(() => exportUnusedSubscriptions(params));

  const columns: PagedColumn<UnusedSubscription>[] = [
    ...subscriptionColumns<UnusedSubscription>(t),
    { key: 'planName', dataIndex: 'planName', title: t('reports.unused.plan'), render: (v) => v ?? '–' },
    moneyColumn('cost', t('reports.unused.cost'), money),
    moneyColumn('monthlyCost', t('reports.unused.monthlyCost'), money),
  ];

  return (
    <div data-testid="unused-page">
      <ReportHeading
        title={t('menu.reports.unusedMonthCount')}
        exportLabel={t('reports.unused.export')}
        exportFile={exportFile}
        disabled={!data?.total}
        testId="unused-export"
      />
      <Typography.Paragraph type="secondary">{t('reports.unused.help')}</Typography.Paragraph>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Flex gap={16} wrap align="center" data-testid="unused-filters">
          <SliceFilters
            testId="unused"
            clientId={state.clientId}
            onClientChange={(id) => patch({ clientId: id, subCompanyId: undefined })}
            subCompanyId={state.subCompanyId}
            onSubCompanyChange={(v) => patch({ subCompanyId: v })}
          />
          <FilterField label={t('reports.unused.months')}>
            <InputNumber<number>
              min={1}
              max={UNUSED_MONTHS_MAX}
              precision={0}
              value={state.months ?? data?.months ?? null}
              onChange={(v) => patch({ months: v ?? undefined })}
              disabled={!ready}
              title={t('reports.unused.monthsHelp')}
              aria-label={t('reports.unused.months')}
              data-testid="unused-months"
            />
          </FilterField>
          {data?.from && data.to && (
            <Typography.Text type="secondary" data-testid="unused-window">
              {t('reports.unused.window', {
                from: formatMonth(data.from, lang),
                to: formatMonth(data.to, lang),
              })}
            </Typography.Text>
          )}
        </Flex>
      </Card>
      {ready ? (
        <PagedTable<UnusedSubscription, SortKey>
          testId="unused-table"
          query={list}
          state={state}
          onPageChange={onPageChange}
          columns={columns}
          sort={SORT}
          rowKey="subscriptionId"
          emptyText={state.q ? t('dashboards.noMatches') : t('reports.unused.empty')}
          toolbar={
            <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('reports.unused.search')}
                width={320}
              />
              {data && (
                <Typography.Text strong data-testid="unused-totals">
                  {t('reports.unused.totals', {
                    subscriptions: data.totals.subscriptions,
                    cost: money(data.totals.cost),
                    yearlySaving: money(data.totals.yearlySaving),
                  })}
                </Typography.Text>
              )}
            </Flex>
          }
        />
      ) : (
        <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
      )}
    </div>
  );
}
