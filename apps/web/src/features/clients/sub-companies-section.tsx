import { useState } from 'react';
import { App, Button, Flex, Form, Input, InputNumber, Select, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { RowEditDelete } from '../../components/row-edit-delete';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  subCompanyInputSchema,
  subCompanyResource,
  type Lang,
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

const resource = subCompanyResource;
type SortKey = (typeof resource.sortable)[number];
const SORT: SortSpec<SortKey> = {
  sortable: resource.sortable,
  defaultSort: resource.defaultSort,
  defaultOrder: resource.defaultOrder ?? 'asc',
};
/** Column widths of the declared columns (the name takes the rest). */
const WIDTHS: Partial<Record<string, number>> = { numberOfUsers: 170, userCount: 190 };

/**
 * Sub-company management (spec §3 Sub-company: name, number of users, billing plan; §8 "Sub-company
 * name already exists"): search, sort and paging, add / edit in a modal, delete after a
 * confirmation (refused with the API's message while the sub-company is in use). Its sorts,
 * columns and field labels are the shared declaration's (`subCompanyResource`).
 */
export function SubCompaniesSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
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

  const columns: PagedColumn<SubCompany>[] = resource.columns.map((c) => ({
    key: c.key,
    dataIndex: c.key,
    title: t(c.labelKey),
    ...(c.type === 'integer' ? { align: 'right' as const } : {}),
    width: WIDTHS[c.key],
    render: (v: unknown) =>
      v === null ? (
        <Typography.Text type="secondary">–</Typography.Text>
      ) : c.type === 'integer' ? (
        formatNumber(v as number, lang)
      ) : (
        String(v)
      ),
  }));

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
            <RowEditDelete
              onEdit={() => setEditing(r)}
              onDelete={() => remove.mutate({ clientId, id: r.id })}
              editLabel={t('clients.subCompanies.edit')}
              deleteLabel={t('clients.subCompanies.delete')}
              confirm={t('clients.subCompanies.deleteConfirm')}
              confirmHelp={t('clients.subCompanies.deleteHelp')}
              cancelLabel={t('common.cancel')}
              testIdPrefix="sub-company"
            />
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
  const labels = Object.fromEntries(resource.fields.map((f) => [f.key, t(f.labelKey)])) as Record<
    keyof SubCompanyInput,
    string
  >;
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
