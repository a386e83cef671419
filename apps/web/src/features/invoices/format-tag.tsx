import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Invoice } from '@kulu/shared';

/**
 * The one place a screen tells which format an invoice came in: an "e-invoice" tag on an invoice
 * that arrived as a Finvoice file, a "Peppol" tag on one that arrived as a Peppol BIS Billing 3.0
 * file (nothing for a PDF).
 */
export function EInvoiceTag({ invoice }: { invoice: Pick<Invoice, 'format'> }) {
  const { t } = useTranslation();
  if (invoice.format !== 'finvoice' && invoice.format !== 'peppol') return null;
  return (
    <Tooltip title={t(`invoices.format.${invoice.format}Help`)}>
      <Tag color="geekblue" style={{ marginInlineStart: 6 }} data-testid="e-invoice-tag">
        {t(`invoices.format.${invoice.format}`)}
      </Tag>
    </Tooltip>
  );
}
