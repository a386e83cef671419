import { useEffect, useMemo, useState } from 'react';
import { App, Button, Col, Divider, Flex, Form, Input, Row, Select, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  PROVIDER_USER_ROLES,
  PROVIDER_USER_SORTABLE,
  PROVIDER_USER_STATUSES,
  providerUserInputSchema,
  type ProviderUser,
  type ProviderUserInput,
  type ProviderUserRole,
  type ProviderUserStatus,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText, fieldRules } from '../../lib/form-rules';
import type { SortSpec } from '../../lib/paging';
import { useSession } from '../../lib/session';
import { usePagedState } from '../../lib/use-paged-state';
import {
  PROVIDER_USERS_KEY,
  providerUserOptionsQuery,
  providerUsersQuery,
  saveProviderUser,
  setProviderUserStatus,
} from './provider-users-api';
import './users-texts';
import './provider-users-texts';
import { IdsSelect, PermissionChecks, permissionGroups, UserRowActions, userColumns } from './user-parts';

type SortKey = (typeof PROVIDER_USER_SORTABLE)[number];
const SORT: SortSpec<SortKey> = {
  sortable: PROVIDER_USER_SORTABLE,
  defaultSort: 'name',
  defaultOrder: 'asc',
};

const GROUPS = permissionGroups(true);

/**
 * Client Management's Users tab (issue 11; decisions/0012): the provider's own administrators and
 * consultants with search, role and status filters, sort and paging; add / edit in a modal with
 * the access permissions of the role and a consultant's assigned companies; deactivate or activate
 * after a confirmation. A new user gets the activation mail. The API refuses what the form cannot
 * show (e.g. taking one's own user management away).
 */
export function ProviderUsersPanel() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const session = useSession();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<ProviderUser | 'new' | null>(null);
  const { state, onPageChange, search, setSearch, submitSearch, patch } = usePagedState<
    SortKey,
    { role?: ProviderUserRole; status?: ProviderUserStatus }
  >(SORT, { role: undefined, status: undefined });
  const query = useQuery(
    providerUsersQuery({
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q || undefined,
      role: state.role,
      status: state.status,
    }),
  );
  const refresh = () => void queryClient.invalidateQueries({ queryKey: PROVIDER_USERS_KEY });
  const status = useMutation({
    mutationFn: setProviderUserStatus,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      refresh();
    },
    onError: (e) => void message.error(errorText(t, e)),
  });
  const isMe = (r: ProviderUser) => r.email.toLowerCase() === session?.emailID.toLowerCase();

  const cols = userColumns<ProviderUser>(t, lang, 'clients.providerUsers', 150);
  const columns: PagedColumn<ProviderUser>[] = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('clients.providerUsers.name'),
      width: 200,
      render: (v: string, r) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>
            {v} {isMe(r) && <Tag>{t('clients.providerUsers.you')}</Tag>}
          </span>
          {r.contactNumber && <Typography.Text type="secondary">{r.contactNumber}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'email', dataIndex: 'email', title: t('clients.providerUsers.email') },
    {
      key: 'role',
      dataIndex: 'role',
      title: t('clients.providerUsers.role'),
      width: 140,
      render: (v: ProviderUserRole) => (
        <Tag color={v === 'admin' ? 'purple' : 'blue'}>{t(`clients.providerUsers.roles.${v}`)}</Tag>
      ),
    },
    cols.status,
    {
      key: 'companies',
      title: t('clients.providerUsers.companies'),
      render: (_v, r) =>
        r.role === 'admin' ? (
          <Typography.Text type="secondary">{t('clients.providerUsers.companiesAll')}</Typography.Text>
        ) : r.companies.length ? (
          <Space size={4} wrap>
            {r.companies.map((c) => (
              <Tag key={c.id}>{c.name}</Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('clients.providerUsers.companiesNone')}</Typography.Text>
        ),
    },
    cols.permissions,
    cols.lastLoginAt,
  ];

  return (
    <div data-testid="provider-users">
      <Typography.Paragraph type="secondary">{t('clients.providerUsers.help')}</Typography.Paragraph>
      <PagedTable<ProviderUser, SortKey>
        testId="provider-users-table"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        rowKey="id"
        emptyText={t('clients.providerUsers.empty')}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap style={{ marginBottom: 16 }}>
            <Space wrap>
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('clients.providerUsers.search')}
                width={320}
              />
              <Select<ProviderUserRole>
                allowClear
                style={{ width: 170 }}
                value={state.role}
                placeholder={t('clients.providerUsers.roleFilter')}
                onChange={(v) => patch({ role: v })}
                options={PROVIDER_USER_ROLES.map((r) => ({
                  value: r,
                  label: t(`clients.providerUsers.roles.${r}`),
                }))}
                aria-label={t('clients.providerUsers.role')}
                data-testid="provider-users-role"
              />
              <Select<ProviderUserStatus>
                allowClear
                style={{ width: 170 }}
                value={state.status}
                placeholder={t('clients.providerUsers.statusFilter')}
                onChange={(v) => patch({ status: v })}
                options={PROVIDER_USER_STATUSES.map((s) => ({
                  value: s,
                  label: t(`clients.providerUsers.statuses.${s}`),
                }))}
                aria-label={t('clients.providerUsers.status')}
                data-testid="provider-users-status"
              />
            </Space>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="provider-user-add"
            >
              {t('clients.providerUsers.add')}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <UserRowActions
              status={r.status}
              onEdit={() => setEditing(r)}
              onStatus={(next) => status.mutate({ id: r.id, status: next })}
              texts="clients.providerUsers"
              testId="provider-user"
              noToggle={isMe(r)}
            />
          ),
        }}
      />
      {editing && (
        <ProviderUserModal
          row={editing === 'new' ? null : editing}
          self={editing !== 'new' && isMe(editing)}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
    </div>
  );
}

type FormValues = Omit<ProviderUserInput, 'contactNumber'> & { contactNumber: string; permissions: string[] };

function ProviderUserModal({
  row,
  self,
  onClose,
  onSaved,
}: {
  row: ProviderUser | null;
  /** The caller's own row: role and status stay as they are. */
  self: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const options = useQuery(providerUserOptionsQuery());
  const role: ProviderUserRole = Form.useWatch('role', form) ?? row?.role ?? 'consultant';
  const labels = {
    name: t('clients.providerUsers.name'),
    email: t('clients.providerUsers.email'),
    contactNumber: t('clients.providerUsers.contactNumber'),
    role: t('clients.providerUsers.role'),
    status: t('clients.providerUsers.status'),
    companyIds: t('clients.providerUsers.companies'),
    permissions: t('clients.providerUsers.permissions'),
  };
  const shape = providerUserInputSchema.shape;
  const grantable = useMemo(() => new Set(options.data?.permissions[role] ?? []), [options.data, role]);
  // A new user starts with everything their role allows; the form narrows it. (The form may mount
  // after the options arrive, so it gets the list as soon as both are there.)
  const [seeded, setSeeded] = useState(!!row);
  useEffect(() => {
    if (seeded || !options.data) return;
    form.setFieldValue('permissions', [...(options.data.permissions[role] ?? [])]);
    setSeeded(true);
  }, [seeded, options.data, role, form]);

  const save = useMutation({
    mutationFn: (body: ProviderUserInput) => saveProviderUser({ id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      onSaved();
      onClose();
    },
    onError: (e) => {
      if (e instanceof ApiRequestError && e.code === 'userEmailExists') {
        form.setFields([{ name: 'email', errors: [errorText(t, e)] }]);
        return;
      }
      if (!applyFieldErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });

  return (
    <AppModal
      open
      width={860}
      title={row ? t('clients.providerUsers.editTitle') : t('clients.providerUsers.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      okButtonProps={{ disabled: options.isLoading }}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{
          name: row?.name ?? '',
          email: row?.email ?? '',
          contactNumber: row?.contactNumber ?? '',
          role: row?.role ?? 'consultant',
          status: row?.status ?? 'active',
          companyIds: row?.companies.map((c) => c.id) ?? [],
          permissions: row?.permissions ?? [],
        }}
        onValuesChange={(changed: Partial<FormValues>) => {
          // A new role: keep what it allows of the chosen permissions.
          if (changed.role && options.data) {
            const allowed = new Set(options.data.permissions[changed.role]);
            form.setFieldValue(
              'permissions',
              (form.getFieldValue('permissions') as string[]).filter((p) => allowed.has(p)),
            );
          }
        }}
        onFinish={(v) =>
          save.mutate({
            ...v,
            contactNumber: v.contactNumber.trim() ? v.contactNumber : null,
            companyIds: v.role === 'consultant' ? v.companyIds : [],
            permissions: v.permissions.filter((p) => grantable.has(p)),
          })
        }
        data-testid="provider-user-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={labels.name} rules={fieldRules(t, labels.name, shape.name)}>
              <Input maxLength={200} autoFocus data-testid="provider-user-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="email"
              label={labels.email}
              extra={row ? undefined : t('clients.providerUsers.emailHelp')}
              rules={fieldRules(t, labels.email, shape.email)}
            >
              <Input type="email" maxLength={254} autoComplete="off" data-testid="provider-user-email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="contactNumber"
              label={labels.contactNumber}
              rules={fieldRules(t, labels.contactNumber, shape.contactNumber, false)}
            >
              <Input inputMode="tel" maxLength={20} data-testid="provider-user-phone" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="role" label={labels.role}>
              <Select<ProviderUserRole>
                disabled={self}
                options={PROVIDER_USER_ROLES.map((r) => ({
                  value: r,
                  label: t(`clients.providerUsers.roles.${r}`),
                }))}
                data-testid="provider-user-role"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="status" label={labels.status}>
              <Select<ProviderUserStatus>
                disabled={self}
                options={PROVIDER_USER_STATUSES.map((s) => ({
                  value: s,
                  label: t(`clients.providerUsers.statuses.${s}`),
                }))}
                data-testid="provider-user-status"
              />
            </Form.Item>
          </Col>
          {role === 'consultant' && (
            <Col span={24}>
              <Form.Item
                name="companyIds"
                label={labels.companyIds}
                extra={t('clients.providerUsers.companiesHelp')}
              >
                <IdsSelect
                  rows={options.data?.companies ?? []}
                  loading={options.isLoading}
                  placeholder={t('clients.providerUsers.companiesNone')}
                  testId="provider-user-companies"
                />
              </Form.Item>
            </Col>
          )}
        </Row>
        <Divider style={{ margin: '4px 0 12px' }} />
        <Flex justify="space-between" align="baseline">
          <Typography.Text strong>{labels.permissions}</Typography.Text>
          <Button
            type="link"
            size="small"
            onClick={() => form.setFieldValue('permissions', [...grantable])}
            data-testid="provider-user-all-permissions"
          >
            {t('clients.providerUsers.selectAll')}
          </Button>
        </Flex>
        <Form.Item name="permissions" style={{ marginTop: 8 }}>
          <PermissionChecks
            groups={GROUPS}
            grantable={grantable}
            isDisabled={(p) => self && p === 'users.manage'}
            rowGap={12}
            testId="provider-user-permissions"
          />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
