import { Typography } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FetchRun } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { NO_SORT } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { failedDownloadsQuery, retryFailedDownload } from './api';
import { RowActionButton, useRowAction } from './row-action';
import { formatDateTime } from '../../lib/format';
import { formatMonth } from './labels';

/** Failed Invoice Download (spec §2): automated fetches that failed, with a retry each. */
export function FailedDownloadsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, tableOf } = usePagedState(NO_SORT);
  const list = useQuery(failedDownloadsQuery(state.page, state.pageSize));
  const retry = useRowAction(retryFailedDownload, (res) =>
    t('errors.retryQueued', { defaultValue: res.message }),
  );

  const columns: PagedColumn<FetchRun>[] = [
    { key: 'client', dataIndex: 'clientName', title: t('automation.columns.client') },
    { key: 'operator', dataIndex: 'operatorName', title: t('automation.columns.operator') },
    {
      key: 'month',
      dataIndex: 'month',
      title: t('automation.columns.month'),
      render: (v: string) => formatMonth(v, lang),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'reason',
      dataIndex: 'reason',
      title: t('automation.columns.reason'),
      render: (v: string | null) => <Typography.Text type="danger">{v ?? ''}</Typography.Text>,
    },
    {
      key: 'date',
      title: t('automation.columns.date'),
      render: (_: unknown, row) => formatDateTime(row.finishedAt ?? row.startedAt, lang),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
  ];

  return (
    <div data-testid="failed-downloads-page">
      <PageHeading title={t('menu.reports.failedInvoiceDownload')} />
      <PagedTable<FetchRun>
        {...tableOf(list)}
        columns={columns}
        emptyText={t('automation.noFailures')}
        rowActions={{
          render: (row) => (
            <RowActionButton action={retry} id={row.id} icon={<RedoOutlined />} testId="retry">
              {t('automation.retry')}
            </RowActionButton>
          ),
        }}
        testId="failed-downloads-table"
      />
    </div>
  );
}
