import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '@kulu/shared';

/**
 * Whom an invoice was addressed to, as printed on it: the name and its business id, or, for an
 * invoice that was read, that it carried no business id. Empty until the invoice is read.
 */
export function BuyerText({
  invoice,
  compact = false,
}: {
  invoice: Pick<Invoice, 'buyerName' | 'buyerBusinessId' | 'uploadState'>;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (!invoice.buyerName && !invoice.buyerBusinessId) return null;
  const id = invoice.buyerBusinessId ? (
    <Typography.Text type="secondary" data-testid="buyer-business-id">
      {t('invoices.table.businessId')} {invoice.buyerBusinessId}
    </Typography.Text>
  ) : (
    <Typography.Text type="warning" data-testid="buyer-no-business-id">
      {t('invoices.table.noBusinessId')}
    </Typography.Text>
  );
  return (
    <div data-testid="invoice-buyer" style={compact ? { fontSize: 12, maxWidth: 220 } : undefined}>
      <div>{invoice.buyerName}</div>
      {id}
    </div>
  );
}
