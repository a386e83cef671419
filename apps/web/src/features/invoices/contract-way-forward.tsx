import { App, Button, Popconfirm, Typography } from 'antd';
import { FileAddOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { hasPermission, type Invoice } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { useSession } from '../../lib/session';
import { addContractAndReadAgain } from './api';

/** The refusal that a contract with the invoice's operator lifts. */
const NO_CONTRACT = 'invoiceOperatorNoContract';

/**
 * The way forward of an invoice refused because the company has no contract with its operator yet
 * (issue 38, item 7): a user allowed to manage operator contracts adds one and reads the invoice
 * again in one step; anyone else is told who can.
 */
export function ContractWayForward({
  invoice,
  compact = false,
}: {
  invoice: Pick<Invoice, 'id' | 'clientId' | 'operatorId' | 'operatorName' | 'errorCode' | 'uploadState'>;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const permissions = useSession()?.acessPermissions ?? [];
  const add = useMutation({
    mutationFn: () => addContractAndReadAgain({ ...invoice, operatorId: invoice.operatorId! }),
    onSuccess: (r) => {
      message.success(r.message);
      void queryClient.invalidateQueries();
    },
    onError: (e) => message.error(errorText(t, e)),
  });
  if (invoice.uploadState !== 'failed' || invoice.errorCode !== NO_CONTRACT || invoice.operatorId === null) {
    return null;
  }
  const operator = invoice.operatorName ?? '';
  if (!hasPermission(permissions, 'clientMasters.operatorContracts')) {
    return (
      <Typography.Text
        type="secondary"
        style={{ display: 'block', fontSize: 12 }}
        data-testid="invoice-contract-who"
      >
        {t('invoices.contract.whoCan', { operator })}
      </Typography.Text>
    );
  }
  const label = t('invoices.contract.add', { operator });
  return (
    <Popconfirm
      title={label}
      description={<div style={{ maxWidth: 320 }}>{t('invoices.contract.addText', { operator })}</div>}
      okText={t('invoices.contract.addOk')}
      cancelText={t('invoices.table.cancel')}
      okButtonProps={{ loading: add.isPending, 'data-testid': 'invoice-add-contract-ok' }}
      onConfirm={() => add.mutateAsync().catch(() => undefined)}
    >
      <Button
        // In a table cell: a link under the refusal's reason, wrapping like it.
        type={compact ? 'link' : 'default'}
        size={compact ? 'small' : 'middle'}
        icon={compact ? undefined : <FileAddOutlined />}
        style={
          compact
            ? { padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start', fontSize: 12 }
            : undefined
        }
        data-testid="invoice-add-contract"
      >
        {label}
      </Button>
    </Popconfirm>
  );
}
