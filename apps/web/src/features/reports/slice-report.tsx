import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { Lang } from '@kulu/shared';
import { PagedTable, type PagedColumn, type PagedQuery } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { ReportHeading } from '../../components/report-heading';
import { shownPeriodOf, SliceFilters, useClientChoice } from '../../components/slice-filters';
import { FilterBar } from '../../components/filter-fields';
import { formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import { chosenClient, rememberClient } from '../../lib/chosen-client';

const MONTH = 'YYYY-MM';

/** The filters every slice report has: the client (provider users), a period, a sub-company. */
export interface SliceState {
  clientId?: number;
  period?: [Dayjs, Dayjs] | null;
  subCompanyId?: number;
}

/**
 * The state of a report over one slice of a client's data (Top Users, Overcharged Plans, Unused
 * Subscriptions): paging, sort and search, the client / period / sub-company filters and what the
 * report's query sends for them (`params`), the reader's language and money format.
 */
export function useSliceReport<S extends string, X extends SliceState>(sort: SortSpec<S>) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  // The client the provider user chose on another page.
  const paged = usePagedState<S, X>(sort, { clientId: chosenClient() } as X);
  const { state } = paged;
  const { provider, ready } = useClientChoice(state.clientId);
  const params = {
    clientId: provider ? state.clientId : undefined,
    from: state.period?.[0].format(MONTH),
    to: state.period?.[1].format(MONTH),
    subCompanyId: state.subCompanyId,
    ...paged.paging,
    ...(sort.sortable.length ? {} : { sort: undefined, order: undefined }),
  };
  const money = (v: string) => formatMoney(Number(v), lang);
  /** The period the filter shows: the chosen one, else the one the answer covers. */
  const shownPeriod = (data?: { from: string; to: string }) => shownPeriodOf(state.period, data);
  return { ...paged, t, lang, ready, params, money, shownPeriod };
}

type SliceReport<S extends string, X extends SliceState> = ReturnType<typeof useSliceReport<S, X>>;

/**
 * The page of a slice report: heading with the Excel export, help, the filter card (client,
 * optionally the period, sub-company, and the report's own `filters`), an optional chart, and the
 * paged table with its search box and totals line. Test ids start with `testId`.
 */
export function SliceReportPage<T extends object, S extends string, X extends SliceState>({
  report,
  testId,
  pageTestId = `${testId}-page`,
  title,
  texts,
  exportRequest,
  withPeriod = true,
  shownPeriod,
  filters,
  chart,
  query,
  columns,
  rowKey,
  totals,
}: {
  report: SliceReport<S, X>;
  testId: string;
  pageTestId?: string;
  title: string;
  /** The translation key prefix of the report's export, help, empty and search texts. */
  texts: string;
  exportRequest: () => Promise<void>;
  withPeriod?: boolean;
  shownPeriod?: [Dayjs, Dayjs] | null;
  filters?: ReactNode;
  chart?: ReactNode;
  query: PagedQuery<T>;
  columns: PagedColumn<T>[];
  rowKey: string | ((row: T) => string);
  totals: ReactNode;
}) {
  const { t, state, patch, ready, tableOf, searchBox } = report;
  return (
    <div data-testid={pageTestId}>
      <ReportHeading
        title={title}
        exportLabel={t(`${texts}.export`)}
        exportRequest={exportRequest}
        disabled={!query.data?.total}
        testId={`${testId}-export`}
        help={t(`${texts}.help`)}
      />
      <FilterBar testId={`${testId}-filters`} style={{ marginBottom: 16 }}>
        <SliceFilters
          testId={testId}
          clientId={state.clientId}
          onClientChange={(id) => {
            rememberClient(id);
            patch({
              clientId: id,
              subCompanyId: undefined,
              ...(withPeriod ? { period: null } : {}),
            } as Partial<X>);
          }}
          period={shownPeriod}
          onPeriodChange={withPeriod ? (p) => patch({ period: p } as Partial<X>) : undefined}
          subCompanyId={state.subCompanyId}
          onSubCompanyChange={(v) => patch({ subCompanyId: v } as Partial<X>)}
        />
        {filters}
      </FilterBar>
      {ready && chart}
      {ready ? (
        <PagedTable<T, S>
          testId={`${testId}-table`}
          {...tableOf(query)}
          columns={columns}
          rowKey={rowKey}
          emptyText={state.q ? t('dashboards.noMatches') : t(`${texts}.empty`)}
          toolbar={
            <Flex gap={12} wrap align="center" justify="space-between" style={{ marginBottom: 16 }}>
              <SearchBox {...searchBox} placeholder={t(`${texts}.search`)} width={320} />
              {totals}
            </Flex>
          }
        />
      ) : (
        <Typography.Text type="secondary">{t('dashboards.clientFirst')}</Typography.Text>
      )}
    </div>
  );
}
