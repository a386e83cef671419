import { useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Form, Input, Select, Table, Tag, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { COMPANY_PERMISSIONS, invoiceUserResource, type ImportPreview } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { ResourceSection } from '../../components/resource/resource-section';
import { errorText } from '../../lib/form-rules';
import { subCompanyOptionsQuery } from '../../lib/organization-api';
import { INVOICE_USERS_KEY, previewImport, runImport } from './client-masters-api';
import { registerClientMastersTexts } from './client-masters-texts';

registerClientMastersTexts();

const SORT_KEYS = { subCompanyName: 'subCompany', costCenterName: 'costCenter' };

/**
 * Invoice User Management (spec §2 /company/client-masters/invoice-user-management) on the
 * declared resource screen (`invoiceUserResource`): the subscriptions' users with search, sort
 * and paging, add / edit / delete, Allow login with the login's permissions, and the import from
 * CSV or Excel with a preview. `clientId` is for provider users (client sections).
 */
export function InvoiceUsersPage({ clientId }: { clientId?: number }) {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  const subCompanies = useQuery(subCompanyOptionsQuery());
  const yesNo = (v: unknown) => (v ? t('clientMasters.yes') : t('clientMasters.no'));
  const none = (v: unknown) => (v == null ? '–' : String(v));
  return (
    <>
      <ResourceSection
        resource={invoiceUserResource}
        base="/api/invoice-users"
        queryKey={INVOICE_USERS_KEY}
        params={clientId == null ? undefined : { clientId }}
        texts={{
          title: t('menu.clientMasters.invoiceUserManagement'),
          add: t('clientMasters.add'),
          addTitle: t('clientMasters.add'),
          editTitle: t('clientMasters.edit'),
          empty: t('clientMasters.empty'),
          search: t('clientMasters.search'),
          edit: t('clientMasters.edit'),
          delete: t('clientMasters.delete'),
          deleteConfirm: t('clientMasters.deleteConfirm'),
        }}
        testIds={{
          root: 'invoice-users-page',
          table: 'invoice-users',
          add: 'invoice-user-add',
          form: 'invoice-user-form',
          field: (key) => `invoice-user-${key}`,
        }}
        extras={{
          sortKeys: SORT_KEYS,
          widths: { name: 200 },
          actions: (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              {t('clientMasters.import')}
            </Button>
          ),
          renderCell: {
            email: none,
            subCompanyName: none,
            costCenterName: none,
            mobileBenefit: yesNo,
            fiveGPlan: yesNo,
            allowLogin: (_, r) =>
              r.loginStatus ? (
                <Tag
                  color={
                    r.loginStatus === 'active' ? 'green' : r.loginStatus === 'invited' ? 'blue' : 'default'
                  }
                >
                  {t(`clientMasters.login.${String(r.loginStatus)}`)}
                </Tag>
              ) : (
                t('clientMasters.login.none')
              ),
          },
          fields: {
            subCompanyId: {
              input: () => (
                <Select
                  allowClear
                  options={(subCompanies.data ?? [])
                    .filter((c) => clientId == null || c.clientId === clientId)
                    .map((c) => ({ value: c.id, label: c.name }))}
                  data-testid="invoice-user-subCompanyId"
                />
              ),
            },
            // Kept as it is: the form has no cost center choice (spec §2), the import sets it.
            costCenterId: { item: { hidden: true }, input: () => <Input /> },
          },
          formExtra: {
            keys: ['permissions'],
            render: (values) =>
              values.allowLogin === true && (
                <Form.Item name="permissions" label={t('clientMasters.permissions')}>
                  <Checkbox.Group options={COMPANY_PERMISSIONS.map((p) => ({ value: p, label: p }))} />
                </Form.Item>
              ),
          },
        }}
      />
      {importing && <ImportModal clientId={clientId} onClose={() => setImporting(false)} />}
    </>
  );
}

function ImportModal({ clientId, onClose }: { clientId?: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const check = useMutation({
    mutationFn: previewImport,
    onSuccess: setPreview,
    onError: (e) => message.error(errorText(t, e)),
  });
  const confirm = useMutation({
    mutationFn: runImport,
    onSuccess: (r) => {
      message.success(r.message);
      void queryClient.invalidateQueries({ queryKey: INVOICE_USERS_KEY });
      onClose();
    },
    onError: (e) => message.error(errorText(t, e)),
  });
  return (
    <AppModal
      open
      width={720}
      title={t('clientMasters.importTitle')}
      onCancel={onClose}
      cancelText={t('clientMasters.cancel')}
      okText={t('clientMasters.confirm')}
      okButtonProps={{ disabled: !file || !preview || preview.valid === 0 }}
      confirmLoading={confirm.isPending}
      onOk={() => file && confirm.mutate({ file, clientId })}
    >
      <p>{t('clientMasters.importHelp')}</p>
      <Upload
        accept=".csv,.xlsx"
        maxCount={1}
        beforeUpload={(f) => {
          setFile(f);
          setPreview(null);
          check.mutate({ file: f, clientId });
          return false;
        }}
        showUploadList={file ? { showRemoveIcon: false } : false}
      >
        <Button icon={<UploadOutlined />} loading={check.isPending}>
          {t('clientMasters.chooseFile')}
        </Button>
      </Upload>
      {preview && (
        <Flex vertical gap={12} style={{ marginTop: 16 }} data-testid="import-preview">
          <Alert
            type={preview.valid ? 'success' : 'warning'}
            message={preview.valid ? t('clientMasters.validRows', preview) : t('clientMasters.nothingValid')}
          />
          {preview.invalidCount > 0 && (
            <>
              <Alert type="error" message={t('clientMasters.invalidRows', { count: preview.invalidCount })} />
              <Table
                size="small"
                rowKey="row"
                pagination={{ pageSize: 10, hideOnSinglePage: true }}
                dataSource={preview.invalid}
                columns={[
                  { key: 'row', dataIndex: 'row', title: t('clientMasters.row'), width: 80 },
                  {
                    key: 'errors',
                    dataIndex: 'errors',
                    title: t('clientMasters.errors'),
                    render: (errors: string[]) => errors.join('; '),
                  },
                ]}
              />
            </>
          )}
        </Flex>
      )}
    </AppModal>
  );
}
