import { useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Form, Input, Select, Switch, Table, Tag, Upload } from 'antd';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { RowEditDelete } from '../../components/row-edit-delete';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  COMPANY_PERMISSIONS,
  INVOICE_USER_SORTABLE,
  type ImportPreview,
  type InvoiceUser,
  type InvoiceUserInput,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PageHeading } from '../../components/page-heading';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { applyFieldErrors, errorText } from '../../lib/form-rules';
import type { SortSpec } from '../../lib/paging';
import { subCompanyOptionsQuery } from '../../lib/organization-api';
import { usePagedState } from '../../lib/use-paged-state';
import {
  INVOICE_USERS_KEY,
  deleteInvoiceUser,
  invoiceUserListQuery,
  previewImport,
  runImport,
  saveInvoiceUser,
} from './client-masters-api';
import { registerClientMastersTexts } from './client-masters-texts';

registerClientMastersTexts();

type SortKey = (typeof INVOICE_USER_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: INVOICE_USER_SORTABLE, defaultSort: 'name' };

/**
 * Invoice User Management (spec §2 /company/client-masters/invoice-user-management): the
 * subscriptions' users with search, sort and paging, add / edit / delete, Allow login, and the
 * import from CSV or Excel with a preview. `clientId` is for provider users (client sections).
 */
export function InvoiceUsersPage({ clientId }: { clientId?: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<InvoiceUser | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const { state, onPageChange, search, setSearch, submitSearch } = usePagedState<SortKey>(SORT);
  const query = useQuery(
    invoiceUserListQuery({
      clientId,
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q || undefined,
    }),
  );
  const remove = useMutation({
    mutationFn: deleteInvoiceUser,
    onSuccess: (r) => {
      message.success(r.message);
      void queryClient.invalidateQueries({ queryKey: INVOICE_USERS_KEY });
    },
    onError: (e) => message.error(errorText(t, e)),
  });
  const yesNo = (v: boolean) => (v ? t('clientMasters.yes') : t('clientMasters.no'));
  const columns: PagedColumn<InvoiceUser>[] = [
    { key: 'name', dataIndex: 'name', title: t('clientMasters.name'), width: 200 },
    { key: 'phoneNumber', dataIndex: 'phoneNumber', title: t('clientMasters.phoneNumber') },
    { key: 'email', dataIndex: 'email', title: t('clientMasters.email'), render: (v) => v ?? '–' },
    {
      key: 'subCompany',
      dataIndex: 'subCompanyName',
      title: t('clientMasters.subCompany'),
      render: (v) => v ?? '–',
    },
    {
      key: 'costCenter',
      dataIndex: 'costCenterName',
      title: t('clientMasters.costCenter'),
      render: (v) => v ?? '–',
    },
    {
      key: 'mobileBenefit',
      dataIndex: 'mobileBenefit',
      title: t('clientMasters.mobileBenefit'),
      render: yesNo,
    },
    { key: 'fiveGPlan', dataIndex: 'fiveGPlan', title: t('clientMasters.fiveGPlan'), render: yesNo },
    {
      key: 'login',
      title: t('clientMasters.allowLogin'),
      render: (_, r) =>
        r.loginStatus ? (
          <Tag
            color={r.loginStatus === 'active' ? 'green' : r.loginStatus === 'invited' ? 'blue' : 'default'}
          >
            {t(`clientMasters.login.${r.loginStatus}`)}
          </Tag>
        ) : (
          t('clientMasters.login.none')
        ),
    },
  ];
  return (
    <>
      <PageHeading title={t('menu.clientMasters.invoiceUserManagement')} />
      <PagedTable
        testId="invoice-users"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        emptyText={t('clientMasters.empty')}
        rowKey="id"
        toolbar={
          <Flex gap={8} wrap>
            <SearchBox
              value={search}
              onChange={setSearch}
              onSearch={submitSearch}
              placeholder={t('clientMasters.search')}
            />
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              {t('clientMasters.import')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('clientMasters.add')}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <RowEditDelete
              onEdit={() => setEditing(r)}
              onDelete={() => remove.mutate(r.id)}
              editLabel={t('clientMasters.edit')}
              deleteLabel={t('clientMasters.delete')}
              confirm={t('clientMasters.deleteConfirm')}
              cancelLabel={t('common.cancel')}
            />
          ),
        }}
      />
      {editing && (
        <InvoiceUserModal
          clientId={clientId}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {importing && <ImportModal clientId={clientId} onClose={() => setImporting(false)} />}
    </>
  );
}

function InvoiceUserModal({
  clientId,
  row,
  onClose,
}: {
  clientId?: number;
  row: InvoiceUser | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<InvoiceUserInput>();
  const allowLogin = Form.useWatch('allowLogin', form);
  const subCompanies = useQuery(subCompanyOptionsQuery());
  const labels: Record<string, string> = {
    name: t('clientMasters.name'),
    phoneNumber: t('clientMasters.phoneNumber'),
    email: t('clientMasters.email'),
    subCompanyId: t('clientMasters.subCompany'),
    costCenterId: t('clientMasters.costCenter'),
    permissions: t('clientMasters.permissions'),
  };
  const save = useMutation({
    mutationFn: (body: InvoiceUserInput) => saveInvoiceUser({ id: row?.id, body: { ...body, clientId } }),
    onSuccess: (r) => {
      message.success(r.message);
      void queryClient.invalidateQueries({ queryKey: INVOICE_USERS_KEY });
      onClose();
    },
    onError: (e) => {
      if (!applyFieldErrors(form, e, t, labels)) message.error(errorText(t, e));
    },
  });
  const required = (name: string) => [{ required: true, message: t('validation.required', { name }) }];
  return (
    <AppModal
      open
      title={row ? t('clientMasters.edit') : t('clientMasters.add')}
      okText={t('clientMasters.save')}
      cancelText={t('clientMasters.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          name: row?.name ?? '',
          phoneNumber: row?.phoneNumber ?? '',
          email: row?.email ?? '',
          subCompanyId: row?.subCompanyId ?? null,
          costCenterId: row?.costCenterId ?? null,
          mobileBenefit: row?.mobileBenefit ?? false,
          fiveGPlan: row?.fiveGPlan ?? false,
          allowLogin: row?.allowLogin ?? false,
          permissions: row?.permissions ?? [],
        }}
        onFinish={(v) => save.mutate(v)}
      >
        <Form.Item name="name" label={labels.name} rules={required(labels.name)}>
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="phoneNumber" label={labels.phoneNumber} rules={required(labels.phoneNumber)}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="email" label={labels.email} rules={allowLogin ? required(labels.email) : []}>
          <Input maxLength={254} />
        </Form.Item>
        <Form.Item name="subCompanyId" label={labels.subCompanyId}>
          <Select
            allowClear
            options={(subCompanies.data ?? [])
              .filter((c) => clientId == null || c.clientId === clientId)
              .map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item name="costCenterId" hidden>
          <Input />
        </Form.Item>
        <Flex gap={24}>
          <Form.Item name="mobileBenefit" label={t('clientMasters.mobileBenefit')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="fiveGPlan" label={t('clientMasters.fiveGPlan')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="allowLogin" label={t('clientMasters.allowLogin')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Flex>
        {allowLogin && (
          <Form.Item name="permissions" label={labels.permissions}>
            <Checkbox.Group options={COMPANY_PERMISSIONS.map((p) => ({ value: p, label: p }))} />
          </Form.Item>
        )}
      </Form>
    </AppModal>
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
