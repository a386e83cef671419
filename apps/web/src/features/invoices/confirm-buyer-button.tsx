import { App, Button, Popconfirm } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { useSession } from '../../lib/session';
import { confirmInvoiceBuyer } from './api';

/**
 * "It is ours": on an invoice refused because it prints no business id and names another buyer
 * (`invoiceBuyerUnknown`), a holder of `invoices.delete` (the company admin) confirms, after a
 * warning, that it is the company's; the API records who and reads it again (issue 37, item 11).
 */
export function ConfirmBuyerButton({
  invoiceId,
  errorCode,
  withText = false,
}: {
  invoiceId: number;
  errorCode: string | null;
  withText?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useSession()?.acessPermissions ?? [];
  const confirm = useMutation({
    mutationFn: () => confirmInvoiceBuyer(invoiceId),
    onSuccess: (r) => {
      message.success(r.message);
      void queryClient.invalidateQueries();
    },
    onError: (e) => message.error(errorText(t, e)),
  });
  if (errorCode !== 'invoiceBuyerUnknown' || !hasPermission(permissions, 'invoices.delete')) return null;
  return (
    <Popconfirm
      title={t('invoices.table.confirmBuyerTitle')}
      description={<div style={{ maxWidth: 320 }}>{t('invoices.table.confirmBuyerText')}</div>}
      okText={t('invoices.table.confirmBuyerOk')}
      cancelText={t('invoices.table.cancel')}
      okButtonProps={{ loading: confirm.isPending, 'data-testid': 'invoice-confirm-buyer-ok' }}
      onConfirm={() => confirm.mutateAsync().catch(() => undefined)}
    >
      <Button
        size={withText ? 'middle' : 'small'}
        icon={<CheckOutlined />}
        aria-label={t('invoices.table.confirmBuyer')}
        title={t('invoices.table.confirmBuyer')}
        data-testid="invoice-confirm-buyer"
      >
        {withText ? t('invoices.table.confirmBuyer') : null}
      </Button>
    </Popconfirm>
  );
}
