import { useMemo } from 'react';
import { Alert, Button, Col, Flex, Row, Space, Typography, type TableColumnsType } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Lang, type Savings, type SavingsQuery } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { formatMoney } from '../../lib/format';
import { optimizationLink } from '../../lib/optimization-link';
import { ChartCard } from '../../components/chart-card';
import { euros, formatCount, formatMonth } from '../../lib/chart-options';
import { shownPeriodOf, SliceFilters, useSlice } from '../../components/slice-filters';
import { FilterBar } from '../../components/filter-fields';
import { FiguresState, TotalCard } from './dashboard-parts';
import { savingsQuery } from './savings-api';
import { bySubCompanyOption, hasRealised, realisedByMonthOption } from './savings-options';

type MonthRow = Savings['realised']['byMonth'][number];
type SubCompanyRow = Savings['bySubCompany'][number];

/**
 * Savings (spec §2 Savings dashboard): what the optimization could still save a month (open
 * recommendations and unused subscriptions, the marked part apart), what marked changes have
 * saved in the period by month, and both by sub-company. Links lead to the optimization page.
 */
export function SavingsPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const slice = useSlice();
  const { ready } = slice;
  const basePath = slice.provider ? '/admin' : '/company';
  const params: SavingsQuery = slice.params;
  const figures = useQuery(savingsQuery(params, lang, ready));

  return (
    <div data-testid="savings-page">
      <PageHeading
        title={t('menu.savings')}
        extra={
          ready && (
            <Link
              to={optimizationLink(basePath, { clientId: params.clientId })}
              data-testid="savings-to-optimization"
            >
              <Button icon={<ThunderboltOutlined />}>{t('savings.openOptimization')}</Button>
            </Link>
          )
        }
      />
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FilterBar testId="savings-filters">
          <SliceFilters
            testId="savings"
            {...slice.filters}
            period={shownPeriodOf(slice.period, figures.data)}
          />
        </FilterBar>

        <FiguresState ready={ready} query={figures} clientFirst={t('savings.clientFirst')} testId="savings">
          {(data) => <Figures data={data} lang={lang} basePath={basePath} clientId={params.clientId} />}
        </FiguresState>
      </Space>
    </div>
  );
}

function Figures({
  data,
  lang,
  basePath,
  clientId,
}: {
  data: Savings;
  lang: Lang;
  basePath: string;
  clientId: number | undefined;
}) {
  const { t } = useTranslation();
  const money = (v: string) => formatMoney(euros(v), lang);
  const { potential, realised } = data;
  const texts = useMemo(
    () => ({ realised: t('savings.realised'), potential: t('savings.potentialMonthly') }),
    [t],
  );
  const months = useMemo(
    () => realisedByMonthOption(realised.byMonth, lang, texts),
    [realised.byMonth, lang, texts],
  );
  const subCompanyRows = useMemo(
    () =>
      data.bySubCompany
        .filter((r) => euros(r.potentialMonthly) !== 0 || euros(r.realised) !== 0)
        .map((r) => ({ ...r, name: r.subCompanyId === null ? t('savings.noSubCompany') : r.name })),
    [data.bySubCompany, t],
  );
  const subCompanies = useMemo(
    () => bySubCompanyOption(subCompanyRows, lang, texts),
    [subCompanyRows, lang, texts],
  );
  const link = (tab: 'optimized' | 'unused') => optimizationLink(basePath, { clientId, tab });
  /** The monthly saving of a tab of Invoice Optimization, with a link to its subscriptions there. */
  const tabCard = (tab: 'optimized' | 'unused', title: string) => {
    const count = potential[`${tab}Count`];
    return (
      <TotalCard title={title} value={money(potential[`${tab}Monthly`])} testId={`savings-${tab}`}>
        <Link to={link(tab)}>{t('savings.subscriptions', { count, n: formatCount(count, lang) })}</Link>
      </TotalCard>
    );
  };

  const monthColumns: TableColumnsType<MonthRow> = [
    { title: t('dashboards.month'), dataIndex: 'month', render: (v: string) => formatMonth(v, lang) },
    { title: t('savings.realised'), dataIndex: 'saving', align: 'right', render: money },
  ];
  const subCompanyColumns: TableColumnsType<SubCompanyRow> = [
    { title: t('dashboards.subCompany'), dataIndex: 'name' },
    { title: t('savings.potentialMonthly'), dataIndex: 'potentialMonthly', align: 'right', render: money },
    { title: t('savings.realised'), dataIndex: 'realised', align: 'right', render: money },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {!data.lastRun && (
        <Alert type="info" showIcon title={t('savings.neverRun')} data-testid="savings-never-run" />
      )}
      <Row gutter={[16, 16]} data-testid="savings-totals">
        <TotalCard
          title={t('savings.potentialMonthly')}
          value={money(potential.monthly)}
          testId="savings-potential"
        >
          <Flex vertical>
            <Typography.Text type="secondary">
              {t('savings.perYear', { amount: money(potential.yearly) })}
            </Typography.Text>
            <Typography.Text type="secondary" data-testid="savings-marked">
              {t('savings.markedPart', {
                count: potential.markedCount,
                amount: money(potential.markedMonthly),
                n: formatCount(potential.markedCount, lang),
              })}
            </Typography.Text>
          </Flex>
        </TotalCard>
        {tabCard('optimized', t('savings.optimizable'))}
        {tabCard('unused', t('savings.unused'))}
        <TotalCard
          title={t('savings.realisedInPeriod')}
          value={money(realised.total)}
          testId="savings-realised"
        >
          <Typography.Text type="secondary">
            {t('savings.realisedCount', { count: realised.count, n: formatCount(realised.count, lang) })}
          </Typography.Text>
        </TotalCard>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <ChartCard<MonthRow>
            title={t('savings.realisedByMonth')}
            testId="savings-months"
            option={months}
            rows={hasRealised(realised.byMonth) ? realised.byMonth : []}
            columns={monthColumns}
            rowKey="month"
            emptyText={t('savings.noRealised')}
          />
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard<SubCompanyRow>
            title={t('savings.bySubCompany')}
            testId="savings-sub-companies"
            option={subCompanies}
            rows={subCompanyRows}
            columns={subCompanyColumns}
            rowKey="subCompanyId"
            emptyText={t('savings.noSavings')}
            height={Math.max(320, Math.min(subCompanyRows.length, 10) * 48 + 60)}
          />
        </Col>
      </Row>
    </Space>
  );
}
