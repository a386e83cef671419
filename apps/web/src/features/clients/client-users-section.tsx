import { Col, Row as GridRow, Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DEFAULT_CLIENT_USER_PERMISSIONS, clientUserResource, type ClientUser } from '@kulu/shared';
import { ResourceSection, type PagedColumn, type Row } from '../../components/resource/resource-section';
import { clientUsersKey, setClientUserStatus, subCompaniesKey, userOptionsQuery } from './users-api';
import './users-texts';
import { IdsItem, PermissionsItem, permissionGroups, UserStatusAction, useUserSection } from './user-parts';

const GROUPS = permissionGroups(false);

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
  const { t } = useTranslation();
  const options = useQuery(userOptionsQuery(clientId));
  const grantable = new Set(options.data?.permissions ?? []);
  // Cost centers of the chosen sub-companies (all of them when none is chosen).
  const costCentersOf = (subs: number[]) =>
    (options.data?.costCenters ?? []).filter(
      (c) => !subs.length || c.subCompanyId == null || subs.includes(c.subCompanyId),
    );
  const idsOf = (v: unknown) => (Array.isArray(v) ? (v as number[]) : []);

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
  const section = useUserSection(clientUserResource, 'clients.users', 'client-user', {
    statusWidth: 140,
    limited: limits,
  });
  const [users, subCompanies] = keysOf(clientId);

  return (
    <ResourceSection
      resource={clientUserResource}
      base={`/api/clients/${clientId}/users`}
      queryKey={users}
      invalidate={[users, subCompanies]}
      {...section}
      extras={{
        ...section.extras,
        widths: { name: 190 },
        RowActions: ClientUserStatusToggle,
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
                  <IdsItem
                    name="subCompanyIds"
                    label={t('clients.users.subCompanyIds')}
                    extra={t('clients.users.limitsHelp')}
                    rows={options.data?.subCompanies ?? []}
                    loading={options.isLoading}
                    placeholder={t('clients.users.subCompaniesAll')}
                    testId="client-user-subs"
                  />
                </Col>
                <Col xs={24} md={12}>
                  <IdsItem
                    name="costCenterIds"
                    label={t('clients.users.costCenterIds')}
                    rows={costCentersOf(idsOf(v.subCompanyIds))}
                    loading={options.isLoading}
                    placeholder={t('clients.users.costCentersAll')}
                    testId="client-user-ccs"
                  />
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
