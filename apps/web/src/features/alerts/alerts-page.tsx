import { useState } from 'react';
import { App, Button, Flex, Grid, Input, Space, Tag, Typography } from 'antd';
import { CheckOutlined, CheckSquareOutlined, SettingOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Dayjs } from 'dayjs';
import {
  ALERT_RULE_LABELS,
  ALERT_RULES,
  ALERT_SEVERITY_LABELS,
  ALERT_STATE_LABELS,
  ALERT_STATES,
  detailPath,
  type Alert,
  type AlertExportQuery,
  type AlertRule,
  type AlertSeverity,
  type AlertState,
  type Lang,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { FilterField, SelectField } from '../../components/filter-fields';
import { SliceFilters, useClientChoice } from '../../components/slice-filters';
import { errorText } from '../../lib/form-rules';
import { formatDate, orNone } from '../../lib/format';
import { formatMonth } from '../../lib/chart-options';
import { NO_SORT } from '../../lib/paging';
import { useSession } from '../../lib/session';
import { chosenClient, rememberClient } from '../../lib/chosen-client';
import { usePagedState } from '../../lib/use-paged-state';
import { ExportButton } from '../../components/export-button';
import { AlertRulesDrawer } from './alert-rules-drawer';
import { acknowledgeAlerts, ALERTS_KEY, alertsQuery, exportAlerts } from './api';
import './texts';

const MONTH = 'YYYY-MM';
const SEVERITY_COLORS: Record<AlertSeverity, string> = { high: 'red', medium: 'orange', low: 'blue' };

/** What the acknowledge dialog acknowledges: rows by id, or every open alert matching the filters. */
type Acking = { ids: number[] } | { matching: AlertExportQuery; count: number };

/** The alerts' filters; the state starts at open. */
interface Filters {
  clientId?: number;
  subCompanyId?: number;
  period?: [Dayjs, Dayjs] | null;
  rule?: AlertRule;
  state?: AlertState;
}

/**
 * Alerts (issue 26): what the rules found on the invoices, newest month first; filters by client
 * (provider users), sub-company, months, type and state; acknowledge one or many with a note;
 * export to Excel; each alert opens its subscription or invoice.
 */
export function AlertsPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const base = useSession()?.basePath ?? '/company';

  // A new filter starts again on the first page.
  const {
    state: paging,
    patch,
    tableOf,
  } = usePagedState<never, Filters>(NO_SORT, {
    state: 'open',
    clientId: chosenClient(),
  });
  const { clientId, subCompanyId, period, rule, state } = paging;
  const { provider } = useClientChoice(clientId);

  const filters: AlertExportQuery = {
    clientId: provider ? clientId : undefined,
    subCompanyId,
    rule,
    state,
    from: period?.[0].format(MONTH),
    to: period?.[1].format(MONTH),
  };
  const list = useQuery(alertsQuery({ ...filters, page: paging.page, pageSize: paging.pageSize }, lang));

  const [selected, setSelected] = useState<number[]>([]);
  const [acking, setAcking] = useState<Acking | null>(null);
  const [note, setNote] = useState('');
  const acknowledge = useMutation({
    mutationFn: (what: Acking) =>
      acknowledgeAlerts({
        ...('ids' in what ? { ids: what.ids } : { matching: what.matching }),
        note: note.trim() || undefined,
      }),
    onSuccess: (res) => {
      void message.success(t('alerts.acknowledgedCount', { count: res.acknowledged }));
      setAcking(null);
      setSelected([]);
      setNote('');
      // The list and the bell (its count is under the same key).
      void queryClient.invalidateQueries({ queryKey: ALERTS_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  // "All matching" acknowledges the open alerts among the filtered ones: their count is the list's
  // total when it shows open ones only, else asked for (one row's page) before confirming.
  const openMatching = { ...filters, state: 'open' as const };
  const countingMatching = useMutation({
    mutationFn: async () =>
      state === 'open' && list.data
        ? list.data.total
        : (await queryClient.fetchQuery(alertsQuery({ ...openMatching, page: 1, pageSize: 1 }, lang))).total,
    onSuccess: (count) => setAcking({ matching: openMatching, count }),
    onError: (err) => void message.error(errorText(t, err)),
  });
  const ackingCount = acking ? ('ids' in acking ? acking.ids.length : acking.count) : 0;
  const [rulesOpen, setRulesOpen] = useState(false);
  const phone = Grid.useBreakpoint().sm === false;

  const target = (a: Alert) =>
    a.subscriptionId != null
      ? { to: detailPath(base, 'subscription', a.subscriptionId), label: t('alerts.openSubscription') }
      : a.invoiceId != null
        ? { to: detailPath(base, 'invoice', a.invoiceId), label: t('alerts.openInvoice') }
        : null;

  const ruleOf = (r: Alert) => (
    <Flex vertical gap={2} align="start">
      <Tag color={SEVERITY_COLORS[r.severity]} data-testid={`alert-severity-${r.id}`}>
        {ALERT_SEVERITY_LABELS[r.severity][lang]}
      </Tag>
      <span>{ALERT_RULE_LABELS[r.rule][lang]}</span>
    </Flex>
  );
  const textOf = (r: Alert) => {
    const v = r.text;
    const link = target(r);
    return (
      <Flex vertical gap={2}>
        {link ? (
          <Link to={link.to} data-testid={`alert-link-${r.id}`}>
            {v}
          </Link>
        ) : (
          <span>{v}</span>
        )}
        {(provider || r.subCompanyName) && (
          <Typography.Text type="secondary">
            {[provider ? r.clientName : null, r.subCompanyName].filter(Boolean).join(' · ')}
          </Typography.Text>
        )}
        {r.state === 'acknowledged' && (
          <Typography.Text type="secondary" data-testid={`alert-ack-${r.id}`}>
            {t('alerts.acknowledged', {
              date: formatDate(r.acknowledgedAt, lang),
              name: orNone(r.acknowledgedBy),
            })}
            {r.note ? `: ${r.note}` : ''}
          </Typography.Text>
        )}
      </Flex>
    );
  };
  const stateOf = (v: AlertState) => (
    <Tag color={v === 'open' ? 'gold' : 'default'}>{ALERT_STATE_LABELS[v][lang]}</Tag>
  );

  const columns: PagedColumn<Alert>[] = [
    {
      key: 'month',
      dataIndex: 'month',
      title: t('alerts.month'),
      render: (v: string) => formatMonth(v.slice(0, 7), lang),
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'rule',
      dataIndex: 'rule',
      title: t('alerts.type'),
      render: (_: AlertRule, r) => ruleOf(r),
    },
    {
      key: 'text',
      dataIndex: 'text',
      title: t('alerts.alert'),
      render: (_: string, r) => textOf(r),
    },
    {
      key: 'state',
      dataIndex: 'state',
      title: t('alerts.state'),
      render: (v: AlertState) => stateOf(v),
    },
  ];
  const ackButton = (r: Alert) =>
    r.state === 'open' ? (
      <Button
        size="small"
        onClick={() => setAcking({ ids: [r.id] })}
        data-testid={`alert-ack-button-${r.id}`}
      >
        {t('alerts.acknowledge')}
      </Button>
    ) : null;
  // A phone (390 px) has room for one column beside the check box: each alert's month, state,
  // type, text and action in it, instead of the month and type with the rest out of view.
  const phoneColumns: PagedColumn<Alert>[] = [
    {
      key: 'alert',
      title: t('alerts.alert'),
      render: (_: unknown, r) => (
        <Flex vertical gap={6} align="start" data-testid={`alert-phone-${r.id}`}>
          <Flex gap={8} wrap align="center">
            <span>{formatMonth(r.month.slice(0, 7), lang)}</span>
            {stateOf(r.state)}
          </Flex>
          {ruleOf(r)}
          {textOf(r)}
          {ackButton(r)}
        </Flex>
      ),
    },
  ];

  return (
    <div data-testid="alerts-page">
      <PageHeading
        title={t('menu.alerts')}
        extra={
          <Button
            icon={<SettingOutlined />}
            disabled={provider && clientId === undefined}
            title={provider && clientId === undefined ? t('alerts.rules.chooseClient') : undefined}
            onClick={() => setRulesOpen(true)}
            data-testid="alert-rules-open"
          >
            {t('alerts.rules.open')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary">{t('alerts.help')}</Typography.Paragraph>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Flex gap={16} wrap align="center">
          <SliceFilters
            testId="alerts"
            clientId={clientId}
            onClientChange={(id) => {
              rememberClient(id);
              patch({ clientId: id, subCompanyId: undefined });
            }}
            period={period}
            onPeriodChange={(p) => patch({ period: p })}
            subCompanyId={subCompanyId}
            onSubCompanyChange={(id) => patch({ subCompanyId: id })}
          />
          <SelectField<AlertRule>
            label={t('alerts.type')}
            placeholder={t('alerts.allTypes')}
            minWidth={180}
            value={rule}
            onChange={(v) => patch({ rule: v })}
            options={ALERT_RULES.map((r) => ({ value: r, label: ALERT_RULE_LABELS[r][lang] }))}
            testId="alerts-type"
          />
          <SelectField<AlertState>
            label={t('alerts.state')}
            placeholder={t('alerts.allStates')}
            minWidth={150}
            value={state}
            onChange={(v) => patch({ state: v })}
            options={ALERT_STATES.map((s) => ({ value: s, label: ALERT_STATE_LABELS[s][lang] }))}
            testId="alerts-state"
          />
        </Flex>
        <PagedTable<Alert, never>
          {...tableOf(list)}
          columns={phone ? phoneColumns : columns}
          rowKey="id"
          testId="alerts-table"
          emptyText={t('alerts.empty')}
          toolbar={
            <Space wrap>
              <Button
                icon={<CheckOutlined />}
                disabled={selected.length === 0}
                onClick={() => setAcking({ ids: selected })}
                data-testid="alerts-ack-selected"
              >
                {t('alerts.acknowledgeSelected', { count: selected.length })}
              </Button>
              <Button
                icon={<CheckSquareOutlined />}
                disabled={state === 'acknowledged' || !list.data?.total}
                loading={countingMatching.isPending}
                onClick={() => countingMatching.mutate()}
                data-testid="alerts-ack-matching"
              >
                {t('alerts.acknowledgeMatching')}
              </Button>
              <ExportButton
                request={() => exportAlerts(filters)}
                label={t('alerts.export')}
                testId="alerts-export"
              />
            </Space>
          }
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as number[]),
            getCheckboxProps: (r: Alert) => ({ disabled: r.state !== 'open' }),
          }}
          rowActions={phone ? undefined : { width: 140, render: ackButton }}
        />
      </Space>
      <AlertRulesDrawer
        open={rulesOpen}
        clientId={provider ? clientId : undefined}
        lang={lang}
        onClose={() => setRulesOpen(false)}
      />
      <AppModal
        open={acking !== null}
        title={t(
          acking && 'matching' in acking ? 'alerts.acknowledgeMatchingTitle' : 'alerts.acknowledgeTitle',
          { count: ackingCount },
        )}
        okText={t('alerts.acknowledge')}
        okButtonProps={{ disabled: ackingCount === 0 }}
        cancelText={t('common.cancel')}
        confirmLoading={acknowledge.isPending}
        onOk={() => acking && acknowledge.mutate(acking)}
        onCancel={() => setAcking(null)}
        destroyOnHidden
      >
        {acking && 'matching' in acking && (
          <Typography.Paragraph data-testid="alerts-ack-matching-text">
            {t('alerts.acknowledgeMatchingText', { count: acking.count })}
          </Typography.Paragraph>
        )}
        <FilterField label={t('alerts.note')}>
          <Input.TextArea
            rows={3}
            maxLength={500}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            placeholder={t('alerts.notePlaceholder')}
            data-testid="alerts-ack-note"
          />
        </FilterField>
      </AppModal>
    </div>
  );
}
