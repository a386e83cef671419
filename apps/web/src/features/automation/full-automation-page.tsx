import { useState } from 'react';
import { Button, Card, Empty, Space, Table, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlayCircleOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FullAutomationRow } from '@kulu/shared';
import { AddButton } from '../../components/add-button';
import { PageHeading } from '../../components/page-heading';
import { errorText } from '../../lib/form-rules';
import { fullAutomationQuery, runNow } from './api';
import { AutomationSettingsModal } from './automation-settings-modal';
import { formatDateTime, NONE } from '../../lib/format';
import { RUN_COLOR } from './labels';
import { RowActionButton, useRowAction } from './row-action';

/** Full Automation (spec §2): the clients whose invoices are fetched from the operator portals. */
export function FullAutomationPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const list = useQuery(fullAutomationQuery());
  const [settings, setSettings] = useState<{ clientId?: number } | null>(null);
  const run = useRowAction(runNow, (res) => t('automation.runStarted', { count: res.jobs }));

  const columns: TableColumnsType<FullAutomationRow> = [
    { key: 'client', dataIndex: 'clientName', title: t('automation.columns.client') },
    {
      key: 'operators',
      dataIndex: 'operators',
      title: t('automation.columns.operators'),
      render: (ops: string[]) =>
        ops.length ? (
          ops.map((o) => <Tag key={o}>{o}</Tag>)
        ) : (
          <Typography.Text type="secondary">{NONE}</Typography.Text>
        ),
    },
    {
      key: 'lastRunAt',
      dataIndex: 'lastRunAt',
      title: t('automation.columns.lastRun'),
      render: (v: string | null) => (v ? formatDateTime(v, lang) : t('automation.never')),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'lastResult',
      title: t('automation.columns.result'),
      render: (_: unknown, row) =>
        row.lastResult ? (
          <div>
            <Tag color={RUN_COLOR[row.lastResult]}>{t(`automation.result.${row.lastResult}`)}</Tag>
            {row.lastReason && (
              <Typography.Text type="danger" style={{ display: 'block', fontSize: 12, maxWidth: 320 }}>
                {row.lastReason}
              </Typography.Text>
            )}
          </div>
        ) : (
          <Typography.Text type="secondary">{NONE}</Typography.Text>
        ),
    },
    {
      key: 'actions',
      title: t('common.actions'),
      align: 'right',
      render: (_: unknown, row) => (
        <Space size={4}>
          <RowActionButton action={run} id={row.clientId} icon={<PlayCircleOutlined />} testId="run-now">
            {t('automation.runNow')}
          </RowActionButton>
          <Button
            size="small"
            icon={<SettingOutlined />}
            onClick={() => setSettings({ clientId: row.clientId })}
            data-testid="automation-settings"
          >
            {t('automation.settings')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="full-automation-page">
      <PageHeading
        title={t('menu.reports.fullAutomation')}
        extra={
          <AddButton
            label={t('automation.automateClient')}
            onClick={() => setSettings({})}
            testId="automate-client"
          />
        }
      />
      <Card>
        <Table<FullAutomationRow>
          rowKey="clientId"
          size="middle"
          columns={columns}
          dataSource={list.data ?? []}
          loading={list.isLoading}
          scroll={{ x: true }}
          pagination={false}
          locale={{
            emptyText: (
              <Empty
                image={Empty.PRESENTED_IMAGE_SIMPLE}
                description={list.isError ? errorText(t, list.error) : t('automation.noAutomatedClients')}
              />
            ),
          }}
          data-testid="full-automation-table"
        />
      </Card>
      {settings && <AutomationSettingsModal clientId={settings.clientId} onClose={() => setSettings(null)} />}
    </div>
  );
}
