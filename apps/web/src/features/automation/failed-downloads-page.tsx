import { useState } from 'react';
import { App, Button, Card, Empty, Table, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { RedoOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FetchRun } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { errorText } from '../../lib/form-rules';
import { PAGE_SIZES } from '../../lib/paging';
import { AUTOMATION_KEY, failedDownloadsQuery, retryFailedDownload } from './api';
import { formatDateTime, formatMonth } from './labels';

/** Failed Invoice Download (spec §2): automated fetches that failed, with a retry each. */
export function FailedDownloadsPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const list = useQuery(failedDownloadsQuery(paging.page, paging.pageSize));
  const retry = useMutation({
    mutationFn: retryFailedDownload,
    onSuccess: (res) => {
      void message.success(t('errors.retryQueued', { defaultValue: res.message }));
      void queryClient.invalidateQueries({ queryKey: AUTOMATION_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const columns: TableColumnsType<FetchRun> = [
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
    {
      key: 'actions',
      title: t('masters.ui.actions'),
      align: 'right',
      render: (_: unknown, row) => (
        <Button
          size="small"
          icon={<RedoOutlined />}
          loading={retry.isPending && retry.variables === row.id}
          onClick={() => retry.mutate(row.id)}
          data-testid="retry"
        >
          {t('automation.retry')}
        </Button>
      ),
    },
  ];

  return (
    <div data-testid="failed-downloads-page">
      <PageHeading title={t('menu.reports.failedInvoiceDownload')} />
      <Card>
        <Table<FetchRun>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.data?.items ?? []}
          loading={list.isLoading}
          scroll={{ x: true }}
          onChange={(p) =>
            setPaging((prev) => ({
              pageSize: p.pageSize ?? prev.pageSize,
              page: p.pageSize !== prev.pageSize ? 1 : (p.current ?? prev.page),
            }))
          }
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={list.isError ? errorText(t, list.error) : t('automation.noFailures')}
              />
            ),
          }}
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: list.data?.total ?? 0,
            showSizeChanger: true,
            showQuickJumper: true,
            pageSizeOptions: PAGE_SIZES.map(String),
            showTotal: (n, [from, to]) => t('masters.ui.total', { from, to, total: n }),
          }}
          data-testid="failed-downloads-table"
        />
      </Card>
    </div>
  );
}
