import type { TFunction } from 'i18next';
import type { PagedColumn } from './paged-table';
import { orNone } from '../lib/format';

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
