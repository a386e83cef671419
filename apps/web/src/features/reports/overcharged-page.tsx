import { Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { OVERCHARGED_SORTABLE, type OverchargedRow } from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import type { SortSpec } from '../../lib/paging';
import { exportOvercharged, overchargedQuery } from './api';
import { SliceReportPage, useSliceReport, type SliceState } from './slice-report';
import './texts';

type SortKey = (typeof OVERCHARGED_SORTABLE)[number];
const SORT: SortSpec<SortKey> = {
  sortable: OVERCHARGED_SORTABLE,
  defaultSort: 'difference',
  defaultOrder: 'desc',
};

/**
 * Overcharged Plans, the invoice audit (spec §2 reports, issue 12): the months in which a
 * subscription's monthly fees were billed above its plan's price for the client, the difference and
 * the total to claim back; admins and consultants pick the client. Totals and the Excel export.
 */
export function OverchargedPage() {
  const report = useSliceReport<SortKey, SliceState>(SORT);
  const { t, params, ready, money } = report;
  const list = useQuery(overchargedQuery(params, ready));
  const data = list.data;

  const columns: PagedColumn<OverchargedRow>[] = [
    ...subscriptionColumns<OverchargedRow>(t, ['userName', 'phoneNumber']),
    { key: 'month', dataIndex: 'month', title: t('reports.overcharged.month') },
    { key: 'planName', dataIndex: 'planName', title: t('reports.overcharged.plan') },
    ...(['expected', 'billed', 'difference'] as const).map((k) =>
      moneyColumn<OverchargedRow>(k, t(`reports.overcharged.${k}`), money),
    ),
  ];

  return (
    <SliceReportPage<OverchargedRow, SortKey, SliceState>
      report={report}
      testId="overcharged"
      title={t('menu.reports.overchargedPlans')}
      texts="reports.overcharged"
      exportRequest={() => exportOvercharged(params)}
      shownPeriod={report.shownPeriod(data)}
      query={list}
      columns={columns}
      rowKey={(r) => `${r.subscriptionId}-${r.month}`}
      totals={
        data && (
          <Typography.Text strong data-testid="overcharged-totals">
            {t('reports.overcharged.totals', {
              lines: data.totals.lines,
              overcharge: money(data.totals.overcharge),
            })}
          </Typography.Text>
        )
      }
    />
  );
}
