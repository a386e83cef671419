import { Flex, Segmented, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CLIENT_CONTRACT_SORTABLE, type ClientContractRow, type Lang } from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { moneyColumn } from '../../components/report-columns';
import { PagedReport } from '../../components/paged-report';
import { SearchBox } from '../../components/search-box';
import { formatDate, formatMoney, NONE, orNone } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { clientContractsQuery, exportClientContracts, type ClientContractsParams } from './api';
import './texts';

type SortKey = (typeof CLIENT_CONTRACT_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: CLIENT_CONTRACT_SORTABLE, defaultSort: 'clientName' };
const STATUS_COLORS: Record<string, string> = { active: 'green', inactive: 'default', terminated: 'red' };

/**
 * Client Contracts (spec §2 admin reports, issue 12): every client's contracts, active or
 * inactive, with the billing plan, plans and costs as saved; totals and the Excel export.
 */
export function ClientContractsPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, patch, paging, tableOf, searchBox } = usePagedState<
    SortKey,
    { state?: 'active' | 'inactive' }
  >(SORT, {});
  const params: ClientContractsParams = { ...paging, state: state.state };
  const list = useQuery(clientContractsQuery(params));
  const data = list.data;
  const money = (v: string | null) => (v == null ? NONE : formatMoney(Number(v), lang));

  const columns: PagedColumn<ClientContractRow>[] = [
    {
      key: 'clientName',
      dataIndex: 'clientName',
      title: t('reports.contracts.client'),
      render: (v: string, r) => (
        <Flex vertical>
          <span>{v}</span>
          <Typography.Text type="secondary">{r.businessId}</Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('reports.contracts.status'),
      render: (v: string) => (
        <Tag color={STATUS_COLORS[v] ?? 'default'}>
          {t(`reports.contracts.statuses.${v}`, { defaultValue: v })}
        </Tag>
      ),
    },
    {
      key: 'startDate',
      dataIndex: 'startDate',
      title: t('reports.contracts.period'),
      render: (_v, r) => `${formatDate(r.startDate, lang)} – ${formatDate(r.endDate, lang)}`,
      onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
    },
    {
      key: 'endedOn',
      dataIndex: 'endedOn',
      title: t('reports.contracts.endedOn'),
      render: (v: string | null) => (v ? formatDate(v, lang) : NONE),
    },
    {
      key: 'billingPlanName',
      dataIndex: 'billingPlanName',
      title: t('reports.contracts.billingPlan'),
      render: orNone,
    },
    { key: 'numberOfPlans', dataIndex: 'numberOfPlans', title: t('reports.contracts.plans'), align: 'right' },
    moneyColumn('monthlyCost', t('reports.contracts.monthlyCost'), money),
    moneyColumn('yearlyCost', t('reports.contracts.yearlyCost'), money),
  ];

  return (
    <PagedReport<ClientContractRow, SortKey>
      testId="client-contracts"
      title={t('menu.reports.clientContracts')}
      texts="reports.contracts"
      exportRequest={() => exportClientContracts(params)}
      {...tableOf(list)}
      columns={columns}
      rowKey="contractId"
      toolbar={
        <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
          <Flex gap={12} wrap align="center">
            <Segmented<'all' | 'active' | 'inactive'>
              value={state.state ?? 'all'}
              onChange={(v) => patch({ state: v === 'all' ? undefined : v })}
              options={(['all', 'active', 'inactive'] as const).map((v) => ({
                value: v,
                label: t(`reports.contracts.states.${v}`),
              }))}
              data-testid="client-contracts-state"
            />
            <SearchBox {...searchBox} placeholder={t('reports.contracts.search')} width={320} />
          </Flex>
          {data && (
            <Typography.Text strong data-testid="client-contracts-totals">
              {t('reports.contracts.totals', {
                contracts: data.totals.contracts,
                plans: data.totals.numberOfPlans,
                monthly: money(data.totals.monthlyCost),
                yearly: money(data.totals.yearlyCost),
              })}
            </Typography.Text>
          )}
        </Flex>
      }
    />
  );
}
