import { useState } from 'react';
import { App, Button, Flex, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, DownloadOutlined, LoadingOutlined, ScheduleOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COMING_SOON_EXPORT_KINDS,
  REPORT_EXPORT_KINDS,
  REPORT_EXPORT_LABELS,
  type Lang,
  type ReportExport,
  type ReportExportStatus,
  type SchedulableExportKind,
} from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { formatDate, formatNumber, NONE } from '../../lib/format';
import { errorText } from '../../lib/form-rules';
import { NO_SORT } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { useDownload } from '../../lib/use-download';
import { FilterBar, FilterField } from '../../components/filter-fields';
import { deleteExport, downloadExport, DOWNLOADS_KEY, downloadsQuery, scheduleExport } from './api';
import { summaryQuery } from '../../lib/reports-api';
import { shownPeriodOf, SliceFilters, useSlice } from '../../components/slice-filters';
import './texts';

const MONTH = 'YYYY-MM';
const STATUS_COLORS: Record<ReportExportStatus, string> = {
  scheduled: 'processing',
  ready: 'success',
  failed: 'error',
};
const comingSoon = (k: string) => (COMING_SOON_EXPORT_KINDS as readonly string[]).includes(k);

const size = (bytes: number | null, lang: Lang) =>
  bytes == null
    ? NONE
    : bytes < 1024 * 1024
      ? `${formatNumber(Math.max(1, Math.round(bytes / 1024)), lang)} kB`
      : `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10, lang)} MB`;

/**
 * Report Archive / Downloads (spec §2 and §9, issue 12), for admins, consultants and companies:
 * schedule an Excel report for a client and month range; the list follows it from Scheduled to
 * Ready (download date, kept until) or Failed ("try again later"), downloads and deletes it.
 */
export function DownloadsPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  const [kind, setKind] = useState<SchedulableExportKind | undefined>();
  const slice = useSlice();
  const { clientId, period, subCompanyId, provider, ready: clientChosen } = slice;
  // Until a period is picked, the reports' own default is shown and scheduled: the twelve months
  // up to the chosen client's latest invoice month (the answer of the cost summary's period).
  const defaults = useQuery(
    summaryQuery(
      'cost-summaries',
      { clientId: provider ? clientId : undefined, subCompanyId, groupBy: 'organization' },
      clientChosen && !period,
    ),
  );
  const shownPeriod = shownPeriodOf(period, defaults.isPlaceholderData ? undefined : defaults.data);

  const { state, tableOf } = usePagedState(NO_SORT);
  const list = useQuery(downloadsQuery({ page: state.page, pageSize: state.pageSize }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: DOWNLOADS_KEY });

  const schedule = useMutation({
    mutationFn: () =>
      scheduleExport({
        kind: kind!,
        clientId: provider ? clientId : undefined,
        subCompanyId,
        from: shownPeriod?.[0].format(MONTH),
        to: shownPeriod?.[1].format(MONTH),
      }),
    onSuccess: () => {
      void message.success(t('downloads.scheduled'));
      void refresh();
    },
    onError: (err) => {
      void message.error(errorText(t, err));
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteExport(id),
    onSuccess: (res) => {
      void message.success(res.message);
      void refresh();
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  const file = useDownload<number>();

  const columns: PagedColumn<ReportExport>[] = [
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('downloads.report'),
      render: (_v, r) => (
        <Flex vertical>
          <span>{REPORT_EXPORT_LABELS[r.kind][lang]}</span>
          {provider && <Typography.Text type="secondary">{r.clientName}</Typography.Text>}
        </Flex>
      ),
    },
    {
      key: 'period',
      title: t('downloads.period'),
      render: (_v, r) => (r.from ? (r.from === r.to ? r.from : `${r.from} – ${r.to}`) : NONE),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('downloads.status'),
      render: (v: ReportExportStatus, r) => {
        const tag = (
          <Tag
            color={STATUS_COLORS[v]}
            icon={v === 'scheduled' ? <LoadingOutlined /> : undefined}
            data-testid={`export-status-${r.id}`}
          >
            {t(`downloads.statuses.${v}`)}
          </Tag>
        );
        return r.error ? (
          <Flex vertical gap={2}>
            {tag}
            <Typography.Text type="danger">{r.error}</Typography.Text>
          </Flex>
        ) : (
          tag
        );
      },
    },
    {
      key: 'requestedAt',
      dataIndex: 'requestedAt',
      title: t('downloads.requestedAt'),
      render: (v: string) => formatDate(v, lang),
    },
    {
      key: 'readyAt',
      dataIndex: 'readyAt',
      title: t('downloads.readyAt'),
      render: (v: string | null) => (v ? formatDate(v, lang) : NONE),
    },
    {
      key: 'expiresAt',
      dataIndex: 'expiresAt',
      title: t('downloads.expiresAt'),
      render: (v: string | null) => (v ? formatDate(v, lang) : NONE),
    },
    {
      key: 'rows',
      dataIndex: 'rows',
      title: t('downloads.rows'),
      align: 'right',
      render: (v: number | null) => (v == null ? NONE : formatNumber(v, lang)),
    },
    {
      key: 'sizeBytes',
      dataIndex: 'sizeBytes',
      title: t('downloads.size'),
      align: 'right',
      render: (v: number | null) => size(v, lang),
    },
  ];

  return (
    <div data-testid="downloads-page">
      <PageHeading title={t('menu.reports.downloads')} />
      <Typography.Paragraph type="secondary">
        {t('downloads.help', { days: list.data?.retentionDays ?? 30 })}
      </Typography.Paragraph>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FilterBar title={t('downloads.newExport')}>
          <FilterField label={t('downloads.report')}>
            <Select<SchedulableExportKind>
              style={{ minWidth: 320 }}
              placeholder={t('downloads.reportPlaceholder')}
              value={kind}
              onChange={setKind}
              data-testid="export-kind"
              options={REPORT_EXPORT_KINDS.map((k) => ({
                value: k as SchedulableExportKind,
                disabled: comingSoon(k),
                label: comingSoon(k) ? (
                  <Tooltip title={t('errors.exportComingSoon')}>
                    {REPORT_EXPORT_LABELS[k][lang]} <Tag>{t('downloads.comingSoon')}</Tag>
                  </Tooltip>
                ) : (
                  REPORT_EXPORT_LABELS[k][lang]
                ),
              }))}
            />
          </FilterField>
          <SliceFilters testId="export" {...slice.filters} period={shownPeriod} />
          <Button
            type="primary"
            icon={<ScheduleOutlined />}
            disabled={!kind || !clientChosen}
            loading={schedule.isPending}
            onClick={() => schedule.mutate()}
            data-testid="export-schedule"
          >
            {t('downloads.schedule')}
          </Button>
        </FilterBar>
        <PagedTable<ReportExport, never>
          title={t('downloads.list')}
          {...tableOf(list)}
          columns={columns}
          rowKey="id"
          emptyText={t('downloads.empty')}
          rowActions={{
            width: 220,
            render: (r) => (
              <Space>
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  disabled={r.status !== 'ready'}
                  loading={file.busy === r.id}
                  onClick={() => file.run(r.id, () => downloadExport(r))}
                  data-testid={`export-download-${r.id}`}
                >
                  {t('downloads.download')}
                </Button>
                <Popconfirm
                  title={t('downloads.deleteConfirm')}
                  okText={t('downloads.delete')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => remove.mutate(r.id)}
                >
                  <Button size="small" danger icon={<DeleteOutlined />} data-testid={`export-delete-${r.id}`}>
                    {t('downloads.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          }}
        />
      </Space>
    </div>
  );
}
