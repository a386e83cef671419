import { useState } from 'react';
import { App, Button, Flex, Form, Input, InputNumber, Popconfirm, Select, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  SUB_COMPANY_SORTABLE,
  subCompanyInputSchema,
  type SubCompany,
  type SubCompanyInput,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText, fieldRules } from '../../lib/form-rules';
import { formatNumber } from '../../lib/format';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  deleteSubCompany,
  saveSubCompany,
  subCompaniesKey,
  subCompaniesQuery,
  userOptionsKey,
  userOptionsQuery,
} from './users-api';
import './users-texts';

type SortKey = (typeof SUB_COMPANY_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: SUB_COMPANY_SORTABLE, defaultSort: 'name', defaultOrder: 'asc' };

/**
 * Sub-company management (spec §3 Sub-company: name, number of users, billing plan; §8 "Sub-company
 * name already exists"): search, sort and paging, add / edit in a modal, delete after a
 * confirmation (refused with the API's message while the sub-company is in use).
 */
export function SubCompaniesSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<SubCompany | 'new' | null>(null);
  const { state, onPageChange, search, setSearch, submitSearch } = usePagedState<SortKey>(SORT);
  const query = useQuery(
    subCompaniesQuery(clientId, {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q || undefined,
    }),
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: subCompaniesKey(clientId) });
    void queryClient.invalidateQueries({ queryKey: userOptionsKey(clientId) });
  };
  const remove = useMutation({
    mutationFn: deleteSubCompany,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      refresh();
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  const columns: PagedColumn<SubCompany>[] = [
    { key: 'name', dataIndex: 'name', title: t('clients.subCompanies.name') },
    {
      key: 'numberOfUsers',
      dataIndex: 'numberOfUsers',
      title: t('clients.subCompanies.numberOfUsers'),
      align: 'right',
      width: 170,
      render: (v: number) => formatNumber(v, lang),
    },
    {
      key: 'userCount',
      dataIndex: 'userCount',
      title: t('clients.subCompanies.userCount'),
      align: 'right',
      width: 190,
      render: (v: number) => formatNumber(v, lang),
    },
    {
      key: 'billingPlanName',
      dataIndex: 'billingPlanName',
      title: t('clients.subCompanies.billingPlanId'),
      render: (v: string | null) => v ?? <Typography.Text type="secondary">–</Typography.Text>,
    },
  ];

  return (
    <div data-testid="client-sub-companies">
      <Typography.Paragraph type="secondary">{t('clients.subCompanies.help')}</Typography.Paragraph>
      <PagedTable<SubCompany, SortKey>
        testId="sub-companies-table"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        rowKey="id"
        emptyText={t('clients.subCompanies.empty')}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap>
            <SearchBox
              value={search}
              onChange={setSearch}
              onSearch={submitSearch}
              placeholder={t('clients.subCompanies.search')}
            />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="sub-company-add"
            >
              {t('clients.subCompanies.add')}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <Space>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label={t('clients.subCompanies.edit')}
                onClick={() => setEditing(r)}
                data-testid="sub-company-edit"
              />
              <Popconfirm
                title={t('clients.subCompanies.deleteConfirm')}
                description={t('clients.subCompanies.deleteHelp')}
                okText={t('clients.subCompanies.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutate({ clientId, id: r.id })}
              >
                <Button
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('clients.subCompanies.delete')}
                  data-testid="sub-company-delete"
                />
              </Popconfirm>
            </Space>
          ),
        }}
      />
      {editing && (
        <SubCompanyModal
          clientId={clientId}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
    </div>
  );
}

function SubCompanyModal({
  clientId,
  row,
  onClose,
  onSaved,
}: {
  clientId: number;
  row: SubCompany | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SubCompanyInput>();
  const options = useQuery(userOptionsQuery(clientId));
  const labels = {
    name: t('clients.subCompanies.name'),
    numberOfUsers: t('clients.subCompanies.numberOfUsers'),
    billingPlanId: t('clients.subCompanies.billingPlanId'),
  };
  const shape = subCompanyInputSchema.shape;
  const save = useMutation({
    mutationFn: (body: SubCompanyInput) => saveSubCompany({ clientId, id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      onSaved();
      onClose();
    },
    onError: (e) => {
      // The spec's "Sub-company name already exists" belongs on the name.
      if (e instanceof ApiRequestError && e.code === 'subCompanyNameExists') {
        form.setFields([{ name: 'name', errors: [errorText(t, e)] }]);
        return;
      }
      if (!applyFieldErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });

  return (
    <AppModal
      open
      title={row ? t('clients.subCompanies.editTitle') : t('clients.subCompanies.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<SubCompanyInput>
        form={form}
        layout="vertical"
        initialValues={{
          name: row?.name ?? '',
          numberOfUsers: row?.numberOfUsers ?? 0,
          billingPlanId: row?.billingPlanId ?? null,
        }}
        onFinish={(v) => save.mutate({ ...v, billingPlanId: v.billingPlanId ?? null })}
        data-testid="sub-company-form"
      >
        <Form.Item name="name" label={labels.name} rules={fieldRules(t, labels.name, shape.name)}>
          <Input maxLength={200} autoFocus data-testid="sub-company-name" />
        </Form.Item>
        <Form.Item
          name="numberOfUsers"
          label={labels.numberOfUsers}
          extra={t('clients.subCompanies.numberOfUsersHelp')}
          rules={[
            { required: true, message: t('validation.required', { name: labels.numberOfUsers }) },
            ...fieldRules(t, labels.numberOfUsers, shape.numberOfUsers, false),
          ]}
        >
          <InputNumber
            min={0}
            max={1_000_000}
            precision={0}
            style={{ width: '100%' }}
            data-testid="sub-company-users"
          />
        </Form.Item>
        <Form.Item name="billingPlanId" label={labels.billingPlanId}>
          <Select<number | null>
            allowClear
            loading={options.isLoading}
            placeholder={t('clients.subCompanies.billingPlanNone')}
            options={(options.data?.billingPlans ?? []).map((p) => ({ value: p.id, label: p.name }))}
            data-testid="sub-company-plan"
          />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
