import { isNotAfterToday, paymentResource, type PaymentList } from '@kulu/shared';
import { formatMoney } from '../../lib/format';
import { MoneySection, type MoneySectionSpec } from './money-section';

/**
 * Client payments (spec §3 Client payment; §5 amount greater than 0, date not in the future):
 * the client's payments newest first with the total of all of them.
 */
const PAYMENTS: MoneySectionSpec<PaymentList> = {
  resource: paymentResource,
  texts: 'clients.payments',
  section: 'payments',
  testIds: { section: 'payments', table: 'payments-table', row: 'payment', summary: 'payments-total' },
  date: {
    key: 'paymentDate',
    ok: isNotAfterToday,
    code: 'paymentDateInFuture',
  },
  amount: {
    key: 'amount',
    positiveCode: 'paymentAmountPositive',
    format: formatMoney,
    suffix: '€',
    maxLength: 16,
  },
  summary: (d, t, lang) => t('clients.payments.total', { amount: formatMoney(Number(d.totalAmount), lang) }),
};

export function PaymentsSection({ clientId }: { clientId: number }) {
  return <MoneySection clientId={clientId} spec={PAYMENTS} />;
}
