import { DatePicker, InputNumber, Typography } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { UNUSED_MONTHS_MAX, UNUSED_SORTABLE, type UnusedSubscription } from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import type { SortSpec } from '../../lib/paging';
import { FilterField } from '../../components/filter-fields';
import { formatMonth } from '../../lib/chart-options';
import { exportUnusedSubscriptions, unusedSubscriptionsQuery, type UnusedParams } from './api';
import { SliceReportPage, useSliceReport, type SliceState } from './slice-report';
import { orNone } from '../../lib/format';
import './texts';

type SortKey = (typeof UNUSED_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: UNUSED_SORTABLE, defaultSort: 'cost', defaultOrder: 'desc' };

interface Filters extends SliceState {
  months?: number;
  /** The window's last month (`YYYY-MM`); none: the latest month with costs. */
  until?: string;
}

/**
 * Unused Subscriptions (spec §2 "Unused-Month-Count", issue 12): subscriptions billed in each of
 * the last N months with costs and used in none, N chosen (else the company's setting); what they
 * cost, and the yearly saving of closing them. Admins and consultants pick the client.
 */
export function UnusedSubscriptionsPage() {
  const report = useSliceReport<SortKey, Filters>(SORT);
  const { t, lang, state, patch, ready, money } = report;
  // No period: the window is N months up to the month chosen (else the latest with costs).
  const { from: _from, to: _to, ...rest } = report.params;
  const params: UnusedParams = { ...rest, months: state.months, to: state.until };
  const list = useQuery(unusedSubscriptionsQuery(params, ready));
  const data = list.data;

  const columns: PagedColumn<UnusedSubscription>[] = [
    ...subscriptionColumns<UnusedSubscription>(t),
    { key: 'planName', dataIndex: 'planName', title: t('reports.unused.plan'), render: orNone },
    moneyColumn('cost', t('reports.unused.cost'), money),
    moneyColumn('monthlyCost', t('reports.unused.monthlyCost'), money),
  ];

  return (
    <SliceReportPage<UnusedSubscription, SortKey, Filters>
      report={report}
      testId="unused"
      title={t('menu.reports.unusedMonthCount')}
      texts="reports.unused"
      exportRequest={() => exportUnusedSubscriptions(params)}
      withPeriod={false}
      filters={
        <>
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
          <FilterField label={t('reports.unused.until')}>
            <DatePicker
              picker="month"
              value={state.until ? dayjs(`${state.until}-01`) : null}
              onChange={(d) => patch({ until: d ? d.format('YYYY-MM') : undefined })}
              placeholder={t('reports.unused.untilLatest')}
              disabled={!ready}
              aria-label={t('reports.unused.until')}
              data-testid="unused-until"
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
        </>
      }
      query={list}
      columns={columns}
      rowKey="subscriptionId"
      totals={
        data && (
          <Typography.Text strong data-testid="unused-totals">
            {t('reports.unused.totals', {
              subscriptions: data.totals.subscriptions,
              cost: money(data.totals.cost),
              yearlySaving: money(data.totals.yearlySaving),
            })}
          </Typography.Text>
        )
      }
    />
  );
}
