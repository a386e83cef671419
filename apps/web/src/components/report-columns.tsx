import type { TFunction } from 'i18next';
import type { TableColumnsType } from 'antd';
import type { Lang } from '@kulu/shared';
import type { PagedColumn } from './paged-table';
import { formatMoney, orNone } from '../lib/format';
import { euros, formatCount, formatGb, formatMonth, formatShare } from '../lib/chart-options';

/** A cell that keeps to one line (phone numbers, amounts). */
export const noWrap = () => ({ style: { whiteSpace: 'nowrap' as const } });

/** The columns a report row about one subscription may carry to say whose it is. */
type Who = 'userName' | 'phoneNumber' | 'subCompanyName' | 'costCenterName';

/**
 * Whose subscription a report row is: the user, the phone number and, by default, its sub-company
 * and cost center (`only` picks fewer), titled as on the dashboards, the dash where a value is missing.
 */
export function subscriptionColumns<T>(
  t: TFunction,
  only: readonly Who[] = ['userName', 'phoneNumber', 'subCompanyName', 'costCenterName'],
): PagedColumn<T>[] {
  const all: Record<Who, PagedColumn<T>> = {
    userName: { key: 'userName', dataIndex: 'userName', title: t('dashboards.user'), render: orNone },
    phoneNumber: {
      key: 'phoneNumber',
      dataIndex: 'phoneNumber',
      title: t('dashboards.phoneNumber'),
      onCell: noWrap,
    },
    subCompanyName: {
      key: 'subCompanyName',
      dataIndex: 'subCompanyName',
      title: t('dashboards.subCompany'),
      render: orNone,
    },
    costCenterName: {
      key: 'costCenterName',
      dataIndex: 'costCenterName',
      title: t('dashboards.costCenter'),
      render: orNone,
    },
  };
  return only.map((k) => all[k]);
}

/** A right-aligned amount column on one line, formatted by `money`. */
export function moneyColumn<T, V = string>(
  key: string,
  title: string,
  money: (v: V) => string,
): PagedColumn<T> {
  return { key, dataIndex: key, title, align: 'right', render: (v: V) => money(v), onCell: noWrap };
}

/** An amount of the API (a decimal euro string) in euros, in the interface language. */
export const moneyOf = (lang: Lang) => (v: string) => formatMoney(euros(v), lang);

/** A month's figures in a chart's table view: the month, its cost and use. */
export function monthColumns<M extends { cost: string; voiceMinutes: number; sms: number; dataMb: number }>(
  t: TFunction,
  lang: Lang,
): TableColumnsType<M> {
  const count = (v: number) => formatCount(v, lang);
  return [
    { title: t('dashboards.month'), dataIndex: 'month', render: (v: string) => formatMonth(v, lang) },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: moneyOf(lang) },
    { title: t('dashboards.voiceMinutes'), dataIndex: 'voiceMinutes', align: 'right', render: count },
    { title: t('dashboards.sms'), dataIndex: 'sms', align: 'right', render: count },
    {
      title: t('dashboards.dataGb'),
      dataIndex: 'dataMb',
      align: 'right',
      render: (v: number) => formatGb(v, lang),
    },
  ];
}

/**
 * A slice's table view (a cost category, cost center, sub-company): its name titled `nameTitle`,
 * its cost and, given the period's `total`, its share of it.
 */
export function sliceColumns<R extends { cost: string }>(
  t: TFunction,
  lang: Lang,
  nameTitle: string,
  total?: number,
): TableColumnsType<R> {
  const columns: TableColumnsType<R> = [
    { title: nameTitle, dataIndex: 'name' },
    { title: t('dashboards.cost'), dataIndex: 'cost', align: 'right', render: moneyOf(lang) },
  ];
  if (total === undefined) return columns;
  return [
    ...columns,
    {
      title: t('dashboards.share'),
      key: 'share',
      align: 'right',
      render: (_: unknown, r: R) => (total ? formatShare(euros(r.cost) / total, lang) : ''),
    },
  ];
}
