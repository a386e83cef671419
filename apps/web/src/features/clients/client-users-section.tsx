import { Col, Form, Input, Row as GridRow, Select, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  CLIENT_USER_STATUSES,
  DEFAULT_CLIENT_USER_PERMISSIONS,
  clientUserResource,
  type ClientUser,
} from '@kulu/shared';
import { ResourceSection, type PagedColumn, type Row } from '../../components/resource/resource-section';
import { clientUsersKey, setClientUserStatus, subCompaniesKey, userOptionsQuery } from './users-api';
import './users-texts';
import {
  asRowColumn,
  IdsSelect,
  PermissionsItem,
  permissionGroups,
  UserStatusAction,
  userColumns,
} from './user-parts';

const GROUPS = permissionGroups(false);

const FIELD_TEST_IDS: Record<string, string> = {
  name: 'client-user-name',
  email: 'client-user-email',
  contactNumber: 'client-user-phone',
  country: 'client-user-country',
  address: 'client-user-address',
  status: 'client-user-status',
};

/** What a user's writes and its status change invalidate: the users, and the sub-companies' user counts. */
const keysOf = (clientId: number) => [clientUsersKey(clientId), subCompaniesKey(clientId)];

/**
 * Additional users of a client (spec §3 Client user: name, address, contact no, email, country,
 * status, sub-companies, cost centers, access permissions) on the declared resource screen
 * (`clientUserResource`): search, status filter, sort and paging; add / edit in a modal checked by
 * the shared schema, the sub-companies, cost centers and permissions beside the declared fields;
 * deactivate or activate (a workflow) after a confirmation; never deleted. A new user gets the
 * activation mail and sets a password from its link.
 */
export function ClientUsersSection({ clientId }: { clientId: number }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'fi' ? 'fi' : 'en';
  const options = useQuery(userOptionsQuery(clientId));
  const grantable = new Set(options.data?.permissions ?? []);
  // Cost centers of the chosen sub-companies (all of them when none is chosen).
  const costCentersOf = (subs: number[]) =>
    (options.data?.costCenters ?? []).filter(
      (c) => !subs.length || c.subCompanyId == null || subs.includes(c.subCompanyId),
    );
  const idsOf = (v: unknown) => (Array.isArray(v) ? (v as number[]) : []);

  const cols = userColumns<ClientUser>(t, lang, 'clients.users', 140);
  const limits: PagedColumn<ClientUser> = {
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
  };
  const statusOptions = CLIENT_USER_STATUSES.map((s) => ({
    value: s,
    label: t(`clients.users.statuses.${s}`),
  }));
  const [users, subCompanies] = keysOf(clientId);

  return (
    <ResourceSection
      resource={clientUserResource}
      base={`/api/clients/${clientId}/users`}
      queryKey={users}
      invalidate={[users, subCompanies]}
      deletable={false}
      texts={{
        add: t('clients.users.add'),
        addTitle: t('clients.users.addTitle'),
        editTitle: t('clients.users.editTitle'),
        empty: t('clients.users.empty'),
        search: t('clients.users.search'),
        edit: t('clients.users.edit'),
      }}
      testIds={{
        root: 'client-users',
        table: 'client-users-table',
        add: 'client-user-add',
        form: 'client-user-form',
        field: (k) => FIELD_TEST_IDS[k] ?? `client-user-${k}`,
        edit: 'client-user-edit',
      }}
      extras={{
        intro: <Typography.Paragraph type="secondary">{t('clients.users.help')}</Typography.Paragraph>,
        columns: [
          'name',
          'email',
          ...[cols.status, limits, cols.permissions, cols.lastLoginAt].map(asRowColumn),
        ],
        widths: { name: 190 },
        searchWidth: 320,
        renderCell: {
          name: (v, r) => (
            <Space direction="vertical" size={0} style={{ whiteSpace: 'nowrap' }}>
              <span>{String(v)}</span>
              {typeof r.contactNumber === 'string' && (
                <Typography.Text type="secondary">{r.contactNumber}</Typography.Text>
              )}
            </Space>
          ),
        },
        filters: {
          status: {
            options: statusOptions,
            placeholder: t('clients.users.statusFilter'),
            testId: 'client-users-status',
          },
        },
        RowActions: ClientUserStatusToggle,
        // The spec's "Client user email already exists" belongs on the email.
        errorFields: { clientUserEmailExists: 'email' },
        fields: {
          email: {
            item: (row) => ({ extra: row ? undefined : t('clients.users.emailHelp') }),
            input: () => (
              <Input type="email" maxLength={254} autoComplete="off" data-testid="client-user-email" />
            ),
          },
          status: {
            input: () => <Select options={statusOptions} data-testid="client-user-status" />,
          },
        },
        formExtra: {
          keys: ['subCompanyIds', 'costCenterIds', 'permissions'],
          initial: (row) => ({
            subCompanyIds: idsOf((row as ClientUser | null)?.subCompanies.map((s) => s.id)),
            costCenterIds: idsOf((row as ClientUser | null)?.costCenters.map((c) => c.id)),
            permissions: (row as ClientUser | null)?.permissions ?? [...DEFAULT_CLIENT_USER_PERMISSIONS],
          }),
          payload: (v) => {
            const allowed = new Set(costCentersOf(idsOf(v.subCompanyIds)).map((c) => c.id));
            return {
              subCompanyIds: idsOf(v.subCompanyIds),
              costCenterIds: idsOf(v.costCenterIds).filter((id) => allowed.has(id)),
              permissions: v.permissions,
            };
          },
          render: (v) => (
            <>
              <GridRow gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item
                    name="subCompanyIds"
                    label={t('clients.users.subCompanyIds')}
                    extra={t('clients.users.limitsHelp')}
                  >
                    <IdsSelect
                      rows={options.data?.subCompanies ?? []}
                      loading={options.isLoading}
                      placeholder={t('clients.users.subCompaniesAll')}
                      testId="client-user-subs"
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="costCenterIds" label={t('clients.users.costCenterIds')}>
                    <IdsSelect
                      rows={costCentersOf(idsOf(v.subCompanyIds))}
                      loading={options.isLoading}
                      placeholder={t('clients.users.costCentersAll')}
                      testId="client-user-ccs"
                    />
                  </Form.Item>
                </Col>
              </GridRow>
              <PermissionsItem
                texts="clients.users"
                groups={GROUPS}
                grantable={grantable}
                rowGap={8}
                testId="client-user"
              />
            </>
          ),
        },
      }}
    />
  );
}

/** Deactivate or activate a user (a workflow beside the resource: its own route and message). */
function ClientUserStatusToggle({ row }: { row: Row }) {
  const user = row as unknown as ClientUser;
  return (
    <UserStatusAction
      status={user.status}
      set={(status) => setClientUserStatus({ clientId: user.clientId, id: user.id, status })}
      invalidate={keysOf(user.clientId)}
      texts="clients.users"
      testId="client-user"
    />
  );
}
