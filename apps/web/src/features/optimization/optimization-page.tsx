import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Flex,
  InputNumber,
  Popconfirm,
  Space,
  Table,
  Tabs,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import {
  CheckOutlined,
  FileExcelOutlined,
  LoadingOutlined,
  SettingOutlined,
  SyncOutlined,
  ThunderboltOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  OPTIMIZATION_SORTS,
  OPTIMIZATION_TABS,
  isProviderRole,
  type Lang,
  type OptimizationItem,
  type OptimizationList,
  type OptimizationTab,
} from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { ExportButton } from '../../components/export-button';
import { SearchBox } from '../../components/search-box';
import { errorText } from '../../lib/form-rules';
import { formatDateTime, formatMoney } from '../../lib/format';
import { pagedParams, type SortSpec } from '../../lib/paging';
import { useSession } from '../../lib/session';
import { useChosenClient } from '../../lib/chosen-client';
import { subCompanyOptionsQuery } from '../../lib/organization-api';
import { usePagedState } from '../../lib/use-paged-state';
import { useIdSelection } from '../../lib/use-id-selection';
import { euros, formatCount, formatMonth } from '../../lib/chart-options';
import { FilterField, SubCompanyField } from '../../components/filter-fields';
import {
  OPTIMIZATION_KEY,
  exportOptimization,
  isRunPending,
  markSubscriptions,
  optimizationListQuery,
  reoptimize,
  unmarkSubscriptions,
  type OptimizationParams,
} from './api';
import { ClientSelect } from '../../components/client-select';
import { canSelect, idParam, isMarkableTab, runView } from './run-status';
import { OptimizationSettingsModal } from './settings-modal';

type Sort = (typeof OPTIMIZATION_SORTS)[number];
const SORT: SortSpec<Sort> = {
  sortable: OPTIMIZATION_SORTS,
  defaultSort: 'monthlySaving',
  defaultOrder: 'desc',
};

/** The sums of the totals row, in the order of their columns. */
const TOTALS = ['currentMonthlyCost', 'bestMonthlyCost', 'monthlySaving', 'yearlySaving'] as const;

interface Filters {
  tab: OptimizationTab;
  savingLimit?: number;
  subCompanyId?: number;
}

const isTab = (v: string | null): v is OptimizationTab =>
  (OPTIMIZATION_TABS as readonly string[]).includes(v ?? '');

/**
 * Optimization (spec §2 Optimization statistics): each subscription's current plan against the
 * best plan for its use, in three tabs (recommendations, already on the best plan, unused), with
 * a saving limit, search, sub-company filter, totals, marking for optimization, re-optimization
 * and the Excel export. Provider users pick the client; client users see their own.
 */
export function OptimizationPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const session = useSession();
  const provider = session ? isProviderRole(session.roleID) : false;
  const permissions = session?.acessPermissions ?? [];
  const canMark = permissions.includes('optimization.mark');
  const canReoptimize = permissions.includes('optimization.reoptimize');
  const canExport = permissions.includes('optimization.export');

  const [searchParams] = useSearchParams();
  const [clientId, setClientId] = useChosenClient(
    provider ? idParam(searchParams.get('clientId')) : undefined,
  );
  const initialTab = searchParams.get('tab');
  const { state, patch, setState, tableOf, searchBox } = usePagedState<Sort, Filters>(SORT, {
    tab: isTab(initialTab) ? initialTab : 'optimized',
  });
  const [limitInput, setLimitInput] = useState<number | null>(null);
  const [selected, setSelected, selection] = useIdSelection();
  const [settingsOpen, setSettingsOpen] = useState(false);

  const subCompanies = useQuery(subCompanyOptionsQuery());
  const subCompanyOptions = (subCompanies.data ?? []).filter((s) => !provider || s.clientId === clientId);

  const ready = !provider || clientId !== undefined;
  const { q, ...paging } = pagedParams(SORT, state);
  const params: OptimizationParams = {
    ...paging,
    clientId: provider ? clientId : undefined,
    tab: state.tab,
    savingLimit: state.savingLimit,
    subCompanyId: state.subCompanyId,
    search: q === undefined ? undefined : String(q),
  };
  const list = useQuery(optimizationListQuery(params, lang, ready));
  const data = list.data;
  const pending = isRunPending(data?.lastRun);

  // A run that finishes changes the findings, the counts and the savings: ask for all again.
  const wasPending = useRef(false);
  useEffect(() => {
    if (wasPending.current && !pending) void queryClient.invalidateQueries({ queryKey: OPTIMIZATION_KEY });
    wasPending.current = pending;
  }, [pending, queryClient]);

  const chooseClient = (id: number | undefined) => {
    setClientId(id);
    setSelected([]);
    setLimitInput(null);
    setState((s) => ({ ...s, page: 1, savingLimit: undefined, subCompanyId: undefined }));
  };
  const changeFilters = (change: Partial<Filters>) => {
    setSelected([]);
    patch(change);
  };

  const mark = useMutation({
    mutationFn: (ids: number[]) => markSubscriptions({ clientId: params.clientId, subscriptionIds: ids }),
    onSuccess: (res) => {
      void message.success(
        res.alreadyMarked
          ? t('optimization.markedSome', { count: res.marked, already: res.alreadyMarked })
          : t('optimization.marked', { count: res.marked }),
      );
      setSelected([]);
      void queryClient.invalidateQueries({ queryKey: OPTIMIZATION_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  const unmark = useMutation({
    mutationFn: (id: number) => unmarkSubscriptions({ clientId: params.clientId, subscriptionIds: [id] }),
    onSuccess: () => {
      void message.success(t('optimization.unmarked'));
      void queryClient.invalidateQueries({ queryKey: OPTIMIZATION_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });
  const rerun = useMutation({
    mutationFn: () => reoptimize(params.clientId),
    onSuccess: () => {
      void message.success(t('errors.reoptimizeQueued'));
      void queryClient.invalidateQueries({ queryKey: OPTIMIZATION_KEY });
    },
    onError: (err) => void message.error(errorText(t, err)),
  });

  const money = (v: string) => formatMoney(euros(v), lang);
  const columns = useColumns(state.tab, lang, canMark ? unmark.mutate : undefined);
  const selectable = canMark && isMarkableTab(state.tab);
  // The totals row: a label over the columns before the money, then the four sums under theirs.
  const leading = columns.findIndex((c) => c.key === 'currentMonthlyCost') + (selectable ? 1 : 0);
  const filtered = state.savingLimit !== undefined || !!state.q.trim() || state.subCompanyId !== undefined;
  const emptyText = !data?.lastRun
    ? t('optimization.neverRun')
    : filtered
      ? t('optimization.noMatches')
      : t(`optimization.empty.${state.tab}`);

  const markButton = selectable && (
    <Popconfirm
      title={t('optimization.markConfirmTitle')}
      description={t('optimization.markConfirm', { count: selected.length })}
      okText={t('optimization.mark')}
      cancelText={t('common.cancel')}
      onConfirm={() => mark.mutate(selected)}
      disabled={!selected.length}
    >
      <Button
        type="primary"
        icon={<CheckOutlined />}
        disabled={!selected.length}
        loading={mark.isPending}
        data-testid="optimization-mark"
      >
        {selected.length ? t('optimization.markCount', { count: selected.length }) : t('optimization.mark')}
      </Button>
    </Popconfirm>
  );

  return (
    <div data-testid="optimization-page">
      <PageHeading
        title={t('menu.optimization')}
        extra={
          ready && (
            <Space wrap>
              {canReoptimize && (
                <Button
                  icon={<SettingOutlined />}
                  onClick={() => setSettingsOpen(true)}
                  data-testid="optimization-settings"
                >
                  {t('optimization.settings.button')}
                </Button>
              )}
              {canReoptimize && (
                <Popconfirm
                  title={t('optimization.reoptimizeConfirmTitle')}
                  description={t('optimization.reoptimizeConfirm')}
                  okText={t('optimization.reoptimize')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => rerun.mutate()}
                  disabled={pending}
                >
                  <Button
                    icon={<SyncOutlined spin={pending} />}
                    loading={rerun.isPending}
                    disabled={pending}
                    data-testid="optimization-reoptimize"
                  >
                    {t('optimization.reoptimize')}
                  </Button>
                </Popconfirm>
              )}
              {canExport && (
                <ExportButton
                  request={() => exportOptimization(params)}
                  label={t('optimization.export')}
                  testId="optimization-export"
                  disabled={!data?.total}
                  icon={<FileExcelOutlined />}
                />
              )}
            </Space>
          )
        }
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Card size="small">
          <Flex gap={16} wrap align="center" justify="space-between">
            <Flex gap={16} wrap align="center" data-testid="optimization-filters">
              {provider && (
                <FilterField label={t('dashboards.client')}>
                  <ClientSelect value={clientId} onChange={chooseClient} testId="optimization-client" />
                </FilterField>
              )}
              <SubCompanyField
                options={subCompanyOptions}
                value={state.subCompanyId}
                onChange={(v) => changeFilters({ subCompanyId: v })}
                disabled={!ready}
                testId="optimization-sub-company"
              />
              <FilterField label={t('optimization.savingLimit')} namesControl={false}>
                <Space.Compact>
                  <InputNumber<number>
                    min={0}
                    max={1_000_000}
                    step={1}
                    precision={2}
                    decimalSeparator={lang === 'fi' ? ',' : '.'}
                    suffix="€"
                    style={{ width: 140 }}
                    placeholder={t('optimization.savingLimitPlaceholder')}
                    value={limitInput}
                    onChange={setLimitInput}
                    onPressEnter={() => changeFilters({ savingLimit: limitInput ?? undefined })}
                    disabled={!ready}
                    aria-label={t('optimization.savingLimit')}
                    data-testid="optimization-saving-limit"
                  />
                  <Button
                    onClick={() => changeFilters({ savingLimit: limitInput ?? undefined })}
                    disabled={!ready}
                    data-testid="optimization-apply"
                  >
                    {t('optimization.apply')}
                  </Button>
                </Space.Compact>
              </FilterField>
            </Flex>
            {ready && data && <RunLine data={data} lang={lang} />}
          </Flex>
        </Card>

        {!ready ? (
          <Card>
            <Empty description={t('optimization.clientFirst')} data-testid="optimization-client-first" />
          </Card>
        ) : (
          <>
            {data?.lastRun?.status === 'failed' && (
              <Alert type="warning" showIcon title={t('optimization.runFailed')} data-testid="run-failed" />
            )}
            <Tabs
              activeKey={state.tab}
              onChange={(key) => changeFilters({ tab: key as OptimizationTab })}
              items={OPTIMIZATION_TABS.map((tab) => ({
                key: tab,
                label: (
                  <span data-testid={`optimization-tab-${tab}`}>
                    {t(`optimization.tabs.${tab}`)}
                    {data && (
                      <Tag style={{ marginInlineStart: 8 }} data-testid={`optimization-count-${tab}`}>
                        {formatCount(data.counts[tab], lang)}
                      </Tag>
                    )}
                  </span>
                ),
              }))}
              style={{ marginBottom: -16 }}
            />
            <PagedTable<OptimizationItem, Sort>
              {...tableOf(list)}
              columns={columns}
              emptyText={emptyText}
              rowKey="subscriptionId"
              rowSelection={
                selectable
                  ? {
                      ...selection,
                      getCheckboxProps: (row) => ({ disabled: !canSelect(state.tab, row) }),
                    }
                  : undefined
              }
              toolbar={
                <Flex wrap gap={12} align="center" justify="space-between" style={{ marginBottom: 16 }}>
                  <SearchBox {...searchBox} placeholder={t('optimization.search')} width={340} />
                  {markButton}
                </Flex>
              }
              summary={() =>
                data && data.total > 0 ? (
                  <Table.Summary fixed>
                    <Table.Summary.Row data-testid="optimization-totals">
                      <Table.Summary.Cell index={0} colSpan={leading}>
                        <Typography.Text strong>
                          {t('optimization.totals', { count: data.total, n: formatCount(data.total, lang) })}
                        </Typography.Text>
                      </Table.Summary.Cell>
                      {TOTALS.map((key, i) => (
                        <Table.Summary.Cell key={key} index={i + 1} align="right">
                          <Typography.Text
                            strong={key === 'monthlySaving' || key === 'yearlySaving'}
                            style={{ whiteSpace: 'nowrap' }}
                            data-testid={`optimization-total-${key}`}
                          >
                            {money(data.totals[key])}
                          </Typography.Text>
                        </Table.Summary.Cell>
                      ))}
                      <Table.Summary.Cell index={5} />
                    </Table.Summary.Row>
                  </Table.Summary>
                ) : null
              }
              testId="optimization-table"
            />
          </>
        )}
      </Space>
      {canReoptimize && ready && (
        <OptimizationSettingsModal
          open={settingsOpen}
          clientId={params.clientId}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </div>
  );
}

/** The table's columns; the money columns right-aligned in the user's format. */
/** `onUnmark`: takes an open mark back (users who may mark); without it a mark is only shown. */
function useColumns(
  tab: OptimizationTab,
  lang: Lang,
  onUnmark?: (subscriptionId: number) => void,
): PagedColumn<OptimizationItem>[] {
  const { t } = useTranslation();
  return useMemo(() => {
    const money = (v: string) => formatMoney(euros(v), lang);
    const text = (v: string | null) => v ?? '';
    const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });
    // The table scrolls sideways: texts keep a readable width instead of squeezing to a word a line.
    const atLeast = (minWidth: number) => () => ({ style: { minWidth } });
    return [
      {
        key: 'userName',
        dataIndex: 'userName',
        title: t('optimization.userAndNumber'),
        render: (v: string | null, row) => <TwoLines first={v ?? ''} second={row.phoneNumber} />,
        onCell: atLeast(130),
      },
      {
        key: 'subCompany',
        dataIndex: 'subCompanyName',
        title: t('optimization.subCompanyAndCostCenter'),
        render: (v: string | null, row) => <TwoLines first={v ?? ''} second={row.costCenterName ?? ''} />,
        onCell: atLeast(130),
      },
      {
        key: 'currentPlan',
        dataIndex: 'currentPlan',
        title: t('optimization.currentPlan'),
        render: text,
        onCell: atLeast(120),
      },
      {
        // The reason is what the page is read for: wrapped under the plan it recommends, in view at
        // once, not in a last column behind the sideways scroll.
        key: 'bestPlan',
        dataIndex: 'bestPlan',
        title: t('optimization.bestPlanAndReason'),
        onCell: atLeast(220),
        render: (v: string | null, row) => (
          <Flex vertical>
            {tab === 'unused' ? (
              <Typography.Text type="secondary">{t('optimization.noPlan')}</Typography.Text>
            ) : (
              <span>{text(v)}</span>
            )}
            <Typography.Text
              type="secondary"
              className="optimization-reason"
              data-testid="optimization-reason"
            >
              {row.reason}
            </Typography.Text>
          </Flex>
        ),
      },
      {
        key: 'currentMonthlyCost',
        dataIndex: 'currentMonthlyCost',
        title: t('optimization.currentCost'),
        align: 'right',
        render: money,
        onCell: nowrap,
      },
      {
        key: 'bestMonthlyCost',
        dataIndex: 'bestMonthlyCost',
        title: t('optimization.bestCost'),
        align: 'right',
        render: money,
        onCell: nowrap,
      },
      {
        key: 'monthlySaving',
        dataIndex: 'monthlySaving',
        title: t('optimization.monthlySaving'),
        align: 'right',
        render: (v: string) => <Typography.Text strong>{money(v)}</Typography.Text>,
        onCell: nowrap,
      },
      {
        key: 'yearlySaving',
        dataIndex: 'yearlySaving',
        title: t('optimization.yearlySaving'),
        align: 'right',
        render: money,
        onCell: nowrap,
      },
      {
        key: 'mark',
        dataIndex: 'mark',
        title: t('optimization.status'),
        // The table is wider than the page at 1400 px: the status and its Unmark stay in view.
        fixed: 'right',
        onCell: nowrap,
        render: (mark: OptimizationItem['mark'], row: OptimizationItem) =>
          !mark ? null : mark.status === 'realised' ? (
            <Tooltip title={t('optimization.markedAt', { date: formatDateTime(mark.markedAt, lang) })}>
              <Tag color="success" data-testid="mark-realised">
                {mark.realisedMonth
                  ? t('optimization.realisedIn', { month: formatMonth(mark.realisedMonth, lang) })
                  : t('optimization.realised')}
              </Tag>
            </Tooltip>
          ) : (
            <Flex vertical gap={2} align="start">
              <Tooltip title={t('optimization.markedAt', { date: formatDateTime(mark.markedAt, lang) })}>
                <Tag color="processing" data-testid="mark-open">
                  {t('optimization.markedTag')}
                </Tag>
              </Tooltip>
              {onUnmark && (
                <Popconfirm
                  title={t('optimization.unmarkConfirm')}
                  okText={t('optimization.unmark')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => onUnmark(row.subscriptionId)}
                >
                  <Button size="small" type="link" icon={<UndoOutlined />} data-testid="optimization-unmark">
                    {t('optimization.unmark')}
                  </Button>
                </Popconfirm>
              )}
            </Flex>
          ),
      },
    ];
  }, [t, tab, lang, onUnmark]);
}

/** A cell of two facts: the first as it is, the second smaller below it. */
function TwoLines({ first, second }: { first: string; second: string }) {
  return (
    <Flex vertical>
      <span>{first}</span>
      {second && (
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {second}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** When the client was last optimized, or that a run is under way (the list polls meanwhile). */
function RunLine({ data, lang }: { data: OptimizationList; lang: Lang }) {
  const { t } = useTranslation();
  const run = runView(data.lastRun);
  return (
    <Typography.Text type="secondary" data-testid="optimization-run">
      {run.kind === 'never' ? (
        t('optimization.run.never')
      ) : run.kind === 'pending' ? (
        <>
          <LoadingOutlined /> {t(`optimization.run.${run.status}`)}
        </>
      ) : run.kind === 'failed' ? (
        <Typography.Text type="danger">
          {t('optimization.run.failed', { date: formatDateTime(run.at, lang) })}
        </Typography.Text>
      ) : (
        <>
          <ThunderboltOutlined /> {t('optimization.run.succeeded', { date: formatDateTime(run.at, lang) })}
        </>
      )}
    </Typography.Text>
  );
}
