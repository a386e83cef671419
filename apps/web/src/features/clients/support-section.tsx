import dayjs from 'dayjs';
import {
  firstOfMonth,
  isInCurrentMonthUpToToday,
  supportHoursResource,
  type SupportHoursList,
} from '@kulu/shared';
import { formatMoney, formatNumber } from '../../lib/format';
import { apiToday } from './money-api';
import { MoneySection, type MoneySectionSpec } from './money-section';

/**
 * On-demand support (spec §3; §5 hours greater than 0, a day of the current month not after
 * today): the client's support hours newest first, this month's total hours and their cost at the
 * billing plan's support fee.
 */
const SUPPORT: MoneySectionSpec<SupportHoursList> = {
  resource: supportHoursResource,
  texts: 'clients.support',
  section: 'support',
  testIds: { section: 'support', table: 'support-table', row: 'support', summary: 'support-month' },
  date: {
    key: 'supportDate',
    ok: isInCurrentMonthUpToToday,
    code: 'supportDateNotInMonth',
    help: 'clients.support.dateHelp',
    defaultPickerValue: () => dayjs(firstOfMonth(apiToday())),
  },
  amount: {
    key: 'hours',
    positiveCode: 'supportHoursPositive',
    format: formatNumber,
    suffix: 'h',
    maxLength: 8,
  },
  summary: (d, t, lang) => {
    const month = new Intl.DateTimeFormat(lang === 'fi' ? 'fi-FI' : 'en-GB', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(`${d.month}-01T00:00:00Z`));
    const hours = formatNumber(Number(d.monthHours), lang);
    const detail =
      d.hourlyFee == null || d.monthCost == null
        ? `${t('clients.support.monthHours', { hours })}, ${t('clients.support.noFee')}`
        : t('clients.support.monthCost', {
            hours,
            fee: formatMoney(Number(d.hourlyFee), lang),
            cost: formatMoney(Number(d.monthCost), lang),
          });
    return `${t('clients.support.month', { month })}: ${detail}`;
  },
};

export function SupportSection({ clientId }: { clientId: number }) {
  return <MoneySection clientId={clientId} spec={SUPPORT} />;
}
