import { App, Button, Popconfirm } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { useSession } from '../../lib/session';
import { deleteInvoice } from './api';

/**
 * Delete, after a confirmation, for users holding `invoices.delete` (the API decides; this only
 * hides). On success every cached answer is refreshed: the invoice's costs leave the dashboards too.
 */
export function DeleteInvoiceButton({
  invoiceId,
  onDeleted,
  withText = false,
}: {
  invoiceId: number;
  onDeleted?: () => void;
  withText?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useSession()?.acessPermissions ?? [];
  const remove = useMutation({
    mutationFn: () => deleteInvoice(invoiceId),
    onSuccess: (r) => {
      message.success(r.message);
      onDeleted?.();
      void queryClient.invalidateQueries();
    },
    onError: (e) => message.error(errorText(t, e)),
  });
  if (!hasPermission(permissions, 'invoices.delete')) return null;
  return (
    <Popconfirm
      title={t('invoices.table.deleteConfirmTitle')}
      description={<div style={{ maxWidth: 320 }}>{t('invoices.table.deleteConfirm')}</div>}
      okText={t('invoices.table.deleteOk')}
      cancelText={t('invoices.table.cancel')}
      okButtonProps={{ danger: true, loading: remove.isPending, 'data-testid': 'invoice-delete-confirm' }}
      onConfirm={() => remove.mutateAsync().catch(() => undefined)}
    >
      <Button
        size={withText ? 'middle' : 'small'}
        danger
        icon={<DeleteOutlined />}
        aria-label={t('invoices.table.delete')}
        title={t('invoices.table.delete')}
        data-testid="invoice-delete"
      >
        {withText ? t('invoices.table.delete') : null}
      </Button>
    </Popconfirm>
  );
}
