import { useMemo, useState } from 'react';
import { App, Button, Col, Divider, Flex, Form, Input, Row, Select, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CLIENT_USER_SORTABLE,
  CLIENT_USER_STATUSES,
  DEFAULT_CLIENT_USER_PERMISSIONS,
  clientUserInputSchema,
  type ClientUser,
  type ClientUserInput,
  type ClientUserStatus,
} from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { PagedTable, type PagedColumn } from '../../components/paged-table';
import { SearchBox } from '../../components/search-box';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText, fieldRules } from '../../lib/form-rules';
import type { SortSpec } from '../../lib/paging';
import { usePagedState } from '../../lib/use-paged-state';
import {
  clientUsersKey,
  clientUsersQuery,
  saveClientUser,
  setClientUserStatus,
  subCompaniesKey,
  userOptionsQuery,
} from './users-api';
import './users-texts';
import { PermissionChecks, permissionGroups, UserRowActions, userColumns } from './user-parts';

type SortKey = (typeof CLIENT_USER_SORTABLE)[number];
const SORT: SortSpec<SortKey> = { sortable: CLIENT_USER_SORTABLE, defaultSort: 'name', defaultOrder: 'asc' };

const GROUPS = permissionGroups(false);

/**
 * Additional users of a client (spec §3 Client user: name, address, contact no, email, country,
 * status, sub-companies, cost centers, access permissions): search, status filter, sort and
 * paging; add / edit in a modal checked by the shared schema; deactivate or activate after a
 * confirmation. A new user gets the activation mail and sets a password from its link.
 */
export function ClientUsersSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<ClientUser | 'new' | null>(null);
  const { state, onPageChange, search, setSearch, submitSearch, patch } = usePagedState<
    SortKey,
    { status?: ClientUserStatus }
  >(SORT, { status: undefined });
  const query = useQuery(
    clientUsersQuery(clientId, {
      page: state.page,
      pageSize: state.pageSize,
      sort: state.sort,
      order: state.order,
      q: state.q || undefined,
      status: state.status,
    }),
  );
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: clientUsersKey(clientId) });
    // The sub-companies' user counts change with the users' limits.
    void queryClient.invalidateQueries({ queryKey: subCompaniesKey(clientId) });
  };
  const status = useMutation({
    mutationFn: setClientUserStatus,
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      refresh();
    },
    onError: (e) => void message.error(errorText(t, e)),
  });

  const cols = userColumns<ClientUser>(t, lang, 'clients.users', 140);
  const columns: PagedColumn<ClientUser>[] = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('clients.users.name'),
      width: 190,
      render: (v: string, r) => (
        <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
          <span>{v}</span>
          {r.contactNumber && <Typography.Text type="secondary">{r.contactNumber}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'email', dataIndex: 'email', title: t('clients.users.email') },
    cols.status,
    {
      key: 'limits',
      title: t('clients.users.limits'),
      render: (_v, r) =>
        r.subCompanies.length || r.costCenters.length ? (
          <Space size={4} wrap>
            {r.subCompanies.map((s) => (
              <Tag key={`s${s.id}`} color="blue">
                {s.name}
              </Tag>
            ))}
            {r.costCenters.map((c) => (
              <Tag key={`c${c.id}`}>{c.name}</Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('clients.users.subCompaniesAll')}</Typography.Text>
        ),
    },
    cols.permissions,
    cols.lastLoginAt,
  ];

  return (
    <div data-testid="client-users">
      <Typography.Paragraph type="secondary">{t('clients.users.help')}</Typography.Paragraph>
      <PagedTable<ClientUser, SortKey>
        testId="client-users-table"
        query={query}
        state={state}
        onPageChange={onPageChange}
        columns={columns}
        sort={SORT}
        rowKey="id"
        emptyText={t('clients.users.empty')}
        toolbar={
          <Flex gap={16} align="center" justify="space-between" wrap>
            <Space wrap>
              <SearchBox
                value={search}
                onChange={setSearch}
                onSearch={submitSearch}
                placeholder={t('clients.users.search')}
                width={320}
              />
              <Select<ClientUserStatus>
                allowClear
                style={{ width: 180 }}
                value={state.status}
                placeholder={t('clients.users.statusFilter')}
                onChange={(v) => patch({ status: v })}
                options={CLIENT_USER_STATUSES.map((s) => ({
                  value: s,
                  label: t(`clients.users.statuses.${s}`),
                }))}
                aria-label={t('clients.users.status')}
                data-testid="client-users-status"
              />
            </Space>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="client-user-add"
            >
              {t('clients.users.add')}
            </Button>
          </Flex>
        }
        rowActions={{
          width: 100,
          render: (r) => (
            <UserRowActions
              status={r.status}
              onEdit={() => setEditing(r)}
              onStatus={(next) => status.mutate({ clientId, id: r.id, status: next })}
              texts="clients.users"
              testId="client-user"
            />
          ),
        }}
      />
      {editing && (
        <ClientUserModal
          clientId={clientId}
          row={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
    </div>
  );
}

type FormValues = Omit<ClientUserInput, 'address' | 'contactNumber' | 'country'> & {
  address: string;
  contactNumber: string;
  country: string;
};

function ClientUserModal({
  clientId,
  row,
  onClose,
  onSaved,
}: {
  clientId: number;
  row: ClientUser | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const options = useQuery(userOptionsQuery(clientId));
  const chosenSubs = Form.useWatch('subCompanyIds', form) ?? [];
  const labels = {
    name: t('clients.users.name'),
    email: t('clients.users.email'),
    address: t('clients.users.address'),
    contactNumber: t('clients.users.contactNumber'),
    country: t('clients.users.country'),
    status: t('clients.users.status'),
    subCompanyIds: t('clients.users.subCompanyIds'),
    costCenterIds: t('clients.users.costCenterIds'),
    permissions: t('clients.users.permissions'),
  };
  const shape = clientUserInputSchema.shape;
  const grantable = useMemo(() => new Set(options.data?.permissions ?? []), [options.data]);
  // Cost centers of the chosen sub-companies (all of them when none is chosen).
  const costCenters = (options.data?.costCenters ?? []).filter(
    (c) => !chosenSubs.length || c.subCompanyId == null || chosenSubs.includes(c.subCompanyId),
  );

  const save = useMutation({
    mutationFn: (body: ClientUserInput) => saveClientUser({ clientId, id: row?.id, body }),
    onSuccess: (r) => {
      void message.success(t(`errors.${r.code}`, { defaultValue: r.message }));
      onSaved();
      onClose();
    },
    onError: (e) => {
      // The spec's "Client user email already exists" belongs on the email.
      if (e instanceof ApiRequestError && e.code === 'clientUserEmailExists') {
        form.setFields([{ name: 'email', errors: [errorText(t, e)] }]);
        return;
      }
      if (!applyFieldErrors(form, e, t, labels)) void message.error(errorText(t, e));
    },
  });
  const blank = (s: string | undefined) => (s && s.trim() ? s : null);

  return (
    <AppModal
      open
      width={760}
      title={row ? t('clients.users.editTitle') : t('clients.users.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{
          name: row?.name ?? '',
          email: row?.email ?? '',
          address: row?.address ?? '',
          contactNumber: row?.contactNumber ?? '',
          country: row?.country ?? '',
          status: row?.status ?? 'active',
          subCompanyIds: row?.subCompanies.map((s) => s.id) ?? [],
          costCenterIds: row?.costCenters.map((c) => c.id) ?? [],
          permissions: row?.permissions ?? [...DEFAULT_CLIENT_USER_PERMISSIONS],
        }}
        onFinish={(v) => {
          const ccAllowed = new Set(costCenters.map((c) => c.id));
          save.mutate({
            ...v,
            address: blank(v.address),
            contactNumber: blank(v.contactNumber),
            country: blank(v.country),
            costCenterIds: v.costCenterIds.filter((id) => ccAllowed.has(id)),
          });
        }}
        data-testid="client-user-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="name" label={labels.name} rules={fieldRules(t, labels.name, shape.name)}>
              <Input maxLength={200} autoFocus data-testid="client-user-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="email"
              label={labels.email}
              extra={row ? undefined : t('clients.users.emailHelp')}
              rules={fieldRules(t, labels.email, shape.email)}
            >
              <Input type="email" maxLength={254} autoComplete="off" data-testid="client-user-email" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="contactNumber"
              label={labels.contactNumber}
              rules={fieldRules(t, labels.contactNumber, shape.contactNumber, false)}
            >
              <Input inputMode="tel" maxLength={20} data-testid="client-user-phone" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="country"
              label={labels.country}
              rules={fieldRules(t, labels.country, shape.country, false)}
            >
              <Input maxLength={100} data-testid="client-user-country" />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item
              name="address"
              label={labels.address}
              rules={fieldRules(t, labels.address, shape.address, false)}
            >
              <Input maxLength={500} data-testid="client-user-address" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="status" label={labels.status}>
              <Select<ClientUserStatus>
                options={CLIENT_USER_STATUSES.map((s) => ({
                  value: s,
                  label: t(`clients.users.statuses.${s}`),
                }))}
                data-testid="client-user-status"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="subCompanyIds"
              label={labels.subCompanyIds}
              extra={t('clients.users.limitsHelp')}
            >
              <Select<number[]>
                mode="multiple"
                allowClear
                loading={options.isLoading}
                placeholder={t('clients.users.subCompaniesAll')}
                optionFilterProp="label"
                options={(options.data?.subCompanies ?? []).map((s) => ({ value: s.id, label: s.name }))}
                data-testid="client-user-subs"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="costCenterIds" label={labels.costCenterIds}>
              <Select<number[]>
                mode="multiple"
                allowClear
                loading={options.isLoading}
                placeholder={t('clients.users.costCentersAll')}
                optionFilterProp="label"
                options={costCenters.map((c) => ({ value: c.id, label: c.name }))}
                data-testid="client-user-ccs"
              />
            </Form.Item>
          </Col>
        </Row>
        <Divider style={{ margin: '4px 0 12px' }} />
        <Form.Item name="permissions" label={labels.permissions}>
          <PermissionChecks
            groups={GROUPS}
            grantable={grantable}
            rowGap={8}
            testId="client-user-permissions"
          />
        </Form.Item>
      </Form>
    </AppModal>
  );
}
