import { Checkbox, Flex, Table, Tag, Tooltip, Typography } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import {
  helsinkiMonth,
  PORTFOLIO_SORTABLE,
  type Lang,
  type PortfolioRow,
  type PortfolioSort,
} from '@kulu/shared';
import type { PagedColumn } from '../../components/paged-table';
import { PagedReport } from '../../components/paged-report';
import { SearchBox } from '../../components/search-box';
import { MonthField } from '../../components/filter-fields';
import { formatDate, formatMoney, NONE } from '../../lib/format';
import { formatChange, formatMonth } from '../../lib/chart-options';
import { dashboardLink } from '../../lib/dashboard-link';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { exportPortfolio, portfolioQuery, type PortfolioParams } from './api';
import './texts';

const SORT: SortSpec<PortfolioSort> = { sortable: PORTFOLIO_SORTABLE, defaultSort: 'companyName' };
const MONTH = 'YYYY-MM';
const ALERT_SEVERITY_ORDER = ['high', 'medium', 'low'] as const;
const SEVERITY_COLOR = { high: 'red', medium: 'orange', low: 'blue' } as const;
const nowrap = () => ({ style: { whiteSpace: 'nowrap' as const } });

/**
 * The provider's portfolio (issue 26): the landing page of provider admins and consultants. A row
 * per client they may see with this month's cost against last month's, open and realised savings,
 * the invoices of the month not yet in, contract ends and the last optimization run; sorted,
 * searched, filtered, paged and exported. A client's name opens its Cost and Usage dashboard.
 */
export function PortfolioPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, patch, paging, tableOf, searchBox } = usePagedState<
    PortfolioSort,
    { month: string; missingInvoices?: boolean }
  >(SORT, { month: helsinkiMonth(new Date()) });
  const params: PortfolioParams = {
    ...paging,
    month: state.month,
    missingInvoices: state.missingInvoices || undefined,
  };
  const list = useQuery(portfolioQuery(params));
  const data = list.data;
  const money = (v: string) => formatMoney(Number(v), lang);
  const lastMonth = dayjs(`${state.month}-01`).subtract(1, 'month').format(MONTH);

  const columns: PagedColumn<PortfolioRow>[] = [
    {
      key: 'companyName',
      dataIndex: 'companyName',
      title: t('portfolio.company'),
      width: 220,
      render: (name: string, r) => (
        <Flex vertical>
          <Link
            to={dashboardLink('/admin', r.clientId)}
            aria-label={t('portfolio.open', { name })}
            data-testid={`portfolio-open-${r.clientId}`}
          >
            {name}
          </Link>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.businessId}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'costThisMonth',
      dataIndex: 'costThisMonth',
      title: t('portfolio.cost', { month: formatMonth(state.month, lang) }),
      align: 'right',
      onCell: nowrap,
      render: (v: string, r) => (
        <Flex vertical>
          <span>{money(v)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('portfolio.lastMonthCost', {
              month: formatMonth(lastMonth, lang),
              cost: money(r.costLastMonth),
            })}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'costChange',
      dataIndex: 'costChange',
      title: t('portfolio.change'),
      align: 'right',
      onCell: nowrap,
      render: (v: number | null) =>
        v === null ? (
          <Typography.Text type="secondary">{NONE}</Typography.Text>
        ) : (
          <Typography.Text type={v > 0 ? 'danger' : v < 0 ? 'success' : undefined}>
            {v > 0 ? <ArrowUpOutlined /> : v < 0 ? <ArrowDownOutlined /> : null} {formatChange(v, lang)}
          </Typography.Text>
        ),
    },
    {
      key: 'potentialSaving',
      dataIndex: 'potentialSaving',
      title: t('portfolio.potentialSaving'),
      align: 'right',
      render: (v: string) => money(v),
      onCell: nowrap,
    },
    {
      key: 'realisedSaving',
      dataIndex: 'realisedSaving',
      title: t('portfolio.realisedSaving'),
      align: 'right',
      render: (v: string) => money(v),
      onCell: nowrap,
    },
    {
      key: 'missingInvoices',
      dataIndex: 'missingInvoices',
      title: t('portfolio.missingInvoices'),
      align: 'right',
      render: (n: number, r) =>
        n ? (
          <Tooltip title={t('portfolio.missingTooltip', { operators: r.missingOperators.join(', ') })}>
            <Tag color="warning" data-testid={`portfolio-missing-${r.clientId}`}>
              {n} · {r.missingOperators.join(', ')}
            </Tag>
          </Tooltip>
        ) : (
          <Typography.Text type="secondary">0</Typography.Text>
        ),
    },
    {
      key: 'openAlerts',
      dataIndex: 'openAlerts',
      title: t('portfolio.openAlerts'),
      onCell: nowrap,
      render: (a: PortfolioRow['openAlerts'], r) =>
        a.high + a.medium + a.low ? (
          <Flex gap={4} data-testid={`portfolio-alerts-${r.clientId}`}>
            {ALERT_SEVERITY_ORDER.filter((k) => a[k] > 0).map((k) => (
              <Tooltip key={k} title={t(`portfolio.severity.${k}`, { n: a[k] })}>
                <Tag color={SEVERITY_COLOR[k]} style={{ marginInlineEnd: 0 }}>
                  {a[k]}
                </Tag>
              </Tooltip>
            ))}
          </Flex>
        ) : (
          <Typography.Text type="secondary">0</Typography.Text>
        ),
    },
    {
      key: 'contractEndDate',
      dataIndex: 'contractEndDate',
      title: t('portfolio.contractEndDate'),
      onCell: nowrap,
      render: (v: string | null, r) => (
        <Flex vertical>
          <span>{formatDate(v, lang)}</span>
          {r.operatorContractEndDate && (
            <Tooltip
              title={t('portfolio.operatorContractEnds', {
                date: formatDate(r.operatorContractEndDate, lang),
              })}
            >
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatDate(r.operatorContractEndDate, lang)}
              </Typography.Text>
            </Tooltip>
          )}
        </Flex>
      ),
    },
    {
      key: 'lastRun',
      dataIndex: 'lastRun',
      title: t('portfolio.lastRun'),
      onCell: nowrap,
      render: (run: PortfolioRow['lastRun']) =>
        run ? (
          <Flex vertical>
            <span>{formatDate(run.finishedAt ?? run.createdAt, lang)}</span>
            <Typography.Text type={run.status === 'failed' ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
              {t(`portfolio.runStatus.${run.status}`)}
            </Typography.Text>
          </Flex>
        ) : (
          <Typography.Text type="secondary">{t('portfolio.never')}</Typography.Text>
        ),
    },
  ];

  const totals = data?.totals;
  return (
    <PagedReport<PortfolioRow, PortfolioSort>
      testId="portfolio"
      title={t('menu.portfolio')}
      texts="portfolio"
      exportRequest={() => exportPortfolio(params, state.month)}
      {...tableOf(list)}
      columns={columns}
      rowKey="clientId"
      summary={() =>
        totals && data.total > 0 ? (
          <Table.Summary.Row data-testid="portfolio-totals">
            <Table.Summary.Cell index={0}>
              <Typography.Text strong>{t('portfolio.totalsRow')}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">
              <Flex vertical>
                <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                  {money(totals.costThisMonth)}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                  {t('portfolio.lastMonthCost', {
                    month: formatMonth(lastMonth, lang),
                    cost: money(totals.costLastMonth),
                  })}
                </Typography.Text>
              </Flex>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={2} />
            <Table.Summary.Cell index={3} align="right">
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                {money(totals.potentialSaving)}
              </Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">
              <Typography.Text strong style={{ whiteSpace: 'nowrap' }}>
                {money(totals.realisedSaving)}
              </Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={5} align="right">
              <Typography.Text strong>{totals.missingInvoices}</Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={6}>
              <Typography.Text strong>
                {totals.openAlerts.high + totals.openAlerts.medium + totals.openAlerts.low}
              </Typography.Text>
            </Table.Summary.Cell>
            <Table.Summary.Cell index={7} colSpan={2} />
          </Table.Summary.Row>
        ) : null
      }
      toolbar={
        <Flex gap={12} wrap align="center" style={{ marginBottom: 16 }}>
          <MonthField
            label={t('portfolio.month')}
            value={state.month}
            onChange={(month) => patch({ month })}
            testId="portfolio-month"
          />
          <SearchBox {...searchBox} placeholder={t('portfolio.search')} width={300} />
          <Checkbox
            checked={!!state.missingInvoices}
            onChange={(e) => patch({ missingInvoices: e.target.checked })}
            data-testid="portfolio-only-missing"
          >
            {t('portfolio.onlyMissing')}
          </Checkbox>
        </Flex>
      }
    />
  );
}
