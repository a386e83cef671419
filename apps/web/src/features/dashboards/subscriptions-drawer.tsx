import { useMemo } from 'react';
import { Drawer, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { COST_USAGE_SUBSCRIPTION_SORTABLE, detailPath, type Lang } from '@kulu/shared';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { moneyColumn, moneyOf, subscriptionColumns } from '../../components/report-columns';
import { SearchBox } from '../../components/search-box';
import { formatMoney } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { useSession } from '../../lib/session';
import { usePagedState } from '../../lib/use-paged-state';
import { costUsageSubscriptionsQuery } from './api';
import { euros, formatCount } from '../../lib/chart-options';
import type { CostUsageQuery, CostUsageSubscription, CostUsageSubscriptionSort as Sort } from './types';

const SORT: SortSpec<Sort> = {
  sortable: COST_USAGE_SUBSCRIPTION_SORTABLE,
  defaultSort: 'cost',
  defaultOrder: 'desc',
};

/** What the drawer lists: the dashboard's filters narrowed to a slice, and its title. */
export interface SubscriptionSlice {
  title: string;
  filters: CostUsageQuery;
}

/**
 * The subscriptions behind a figure of the Cost and Usage dashboard ("show all" users, or the
 * drill-down of a bar or slice): paged, sorted, searched, each linked to its detail page.
 */
export function SubscriptionsDrawer({
  slice,
  lang,
  onClose,
}: {
  slice: SubscriptionSlice | null;
  lang: Lang;
  onClose: () => void;
}) {
  return (
    <Drawer
      open={slice !== null}
      onClose={onClose}
      title={slice?.title}
      size="large"
      destroyOnHidden
      data-testid="dashboard-drawer"
    >
      {/* A new slice starts on page 1 without a search. */}
      {slice && <SubscriptionList key={JSON.stringify(slice.filters)} filters={slice.filters} lang={lang} />}
    </Drawer>
  );
}

function SubscriptionList({ filters, lang }: { filters: CostUsageQuery; lang: Lang }) {
  const { t } = useTranslation();
  const base = useSession()?.basePath ?? '';
  const { state, paging, tableOf, searchBox } = usePagedState(SORT);
  const list = useQuery(costUsageSubscriptionsQuery({ ...filters, ...paging }));
  const columns = useMemo<PagedColumn<CostUsageSubscription>[]>(
    () => [
      {
        key: 'userName',
        dataIndex: 'userName',
        title: t('dashboards.user'),
        render: (v: string | null, row) => (
          <Link
            to={detailPath(base, 'subscription', row.subscriptionId)}
            data-testid="drawer-subscription-link"
          >
            {v || row.phoneNumber}
          </Link>
        ),
      },
      ...subscriptionColumns<CostUsageSubscription>(t, ['phoneNumber', 'subCompanyName', 'costCenterName']),
      moneyColumn<CostUsageSubscription>('cost', t('dashboards.cost'), moneyOf(lang)),
    ],
    [t, lang, base],
  );

  const data = list.data;
  return (
    <PagedTable<CostUsageSubscription, Sort>
      {...tableOf(list)}
      columns={columns}
      rowKey="subscriptionId"
      emptyText={state.q ? t('dashboards.noMatches') : t('dashboards.noSubscriptions')}
      toolbar={
        <>
          <SearchBox {...searchBox} placeholder={t('dashboards.search')} alone testId="drawer-search" />
          {data && (
            <Typography.Paragraph type="secondary" data-testid="drawer-summary">
              {t('dashboards.subscriptionsTotal', {
                count: data.total,
                subscriptions: formatCount(data.total, lang),
                cost: formatMoney(euros(data.totalCost), lang),
              })}
            </Typography.Paragraph>
          )}
        </>
      }
      testId="drawer-subscriptions"
    />
  );
}
