import { Card, Flex, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { OVERCHARGED_SORTABLE, type Lang, type OverchargedRow } from '@kulu/shared';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { moneyColumn, subscriptionColumns } from '../../components/report-columns';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { exportOvercharged, overchargedQuery, type OverchargedParams } from './api';
import { ReportHeading } from '../../components/report-heading';
import { SliceFilters, useClientChoice } from '../../components/slice-filters';
import './texts';
import { useReportExport } from '../../lib/use-report-export';

const MONTH = 'YYYY-MM';

type SortKey = (typeof OVERCHARGED_SORTABLE)[number];
const SORT: SortSpec<SortKey> = {
  sortable: OVERCHARGED_SORTABLE,
  defaultSort: 'difference',
  defaultOrder: 'desc',
};

interface Filters {
  clientId?: number;
  period?: [Dayjs, Dayjs] | null;
  subCompanyId?: number;
}

/**
 * Overcharged Plans, the invoice audit (spec §2 reports, issue 12): the months in which a
 * subscription's monthly fees were billed above its plan's price for the client, the difference and
 * the total to claim back; admins and consultants pick the client. Totals and the Excel export.
 */
export function OverchargedPage() {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { state, onPageChange, search, setSearch, submitSearch, patch } = usePagedState<SortKey, Filters>(
    SORT,
    {},
  );
  const { provider, ready } = useClientChoice(state.clientId);
  const params: OverchargedParams = {
    clientId: provider ? state.clientId : undefined,
    from: state.period?.[0].format(MONTH),
    to: state.period?.[1].format(MONTH),
    subCompanyId: state.subCompanyId,
    q: state.q || undefined,
    page: state.page,
    pageSize: state.pageSize,
    sort: state.sort,
    order: state.order,
  };
  const list = useQuery(overchargedQuery(params, ready));
  const data = list.data;
  const shownPeriod: [Dayjs, Dayjs] | null =
    state.period ?? (data ? [dayjs(`${data.from}-01`), dayjs(`${data.to}-01`)] : null);
  const money = (v: string) => formatMoney(Number(v), lang);

  const exportFile = useReportExport(() => exportOvercharged(params));

  const columns: PagedColumn<OverchargedRow>[] = [
    ...subscriptionColumns<OverchargedRow>(t, ['userName', 'phoneNumber']),
    { key: 'month', dataIndex: 'month', title: t('reports.overcharged.month') },
    { key: 'planName', dataIndex: 'planName', title: t('reports.overcharged.plan') },
    ...(['expected', 'billed', 'difference'] as const).map((k) =>
      moneyColumn<OverchargedRow>(k, t(`reports.overcharged.${k}`), money),
    ),
  ];

  return (
    <div data-testid="overcharged-page">
      <ReportHeading
        title={t('menu.reports.overchargedPlans')}
        exportLabel={t('reports.overcharged.export')}
        exportFile={exportFile}
        disabled={!data?.total}
        testId="overcharged-export"
      />
      <Typography.Paragraph type="secondary">{t('reports.overcharged.help')}</Typography.Paragraph>
      <Card size="small" style={{ marginBottom: 16 }}>
        <Flex gap={16} wrap align="center" data-testid="overcharged-filters">
          <SliceFilters
            testId="overcharged"
            clientId={state.clientId}
            onClientChange={(id) => patch({ clientId: id, period: null, subCompanyId: undefined })}
            period={shownPeriod}
            onPeriodChange={(p) => patch({ period: p })}
            subCompanyId={state.subCompanyId}
            onSubCompanyChange={(v) => patch({ subCompanyId: v })}
          />
        </Flex>
      </Card>
      {ready ? (
        <PagedTable<OverchargedRow, SortKey>
          testId="overcharged-table"
          query={list}
          state={state}
          onPageChange={onPageChange}
          columns={columns}
          sort={SORT}
          rowKey={(r) => `${r.subscriptionId}-${r.month}`}
          emptyText={state.q ? t('dashboards.noMatches') : t('reports.overcharged.empty')}
          toolbar={
            <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('reports.overcharged.search')}
                width={320}
              />
              {data && (
                <Typography.Text strong data-testid="overcharged-totals">
                  {t('reports.overcharged.totals', {
                    lines: data.totals.lines,
                    overcharge: money(data.totals.overcharge),
                  })}
                </Typography.Text>
              )}
            </Flex>
          }
        />
      ) : (
        <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
      )}
    </div>
  );
}
