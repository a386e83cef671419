import { Space, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { providerUserResource, type ProviderUser, type ProviderUserRole } from '@kulu/shared';
import {
  ResourceSection,
  type FormValues,
  type PagedColumn,
  type Row,
} from '../../components/resource/resource-section';
import { useSession } from '../../lib/session';
import { PROVIDER_USERS_KEY, providerUserOptionsQuery, setProviderUserStatus } from './provider-users-api';
import './provider-users-texts';
import { IdsItem, PermissionsItem, permissionGroups, UserStatusAction, useUserSection } from './user-parts';

const GROUPS = permissionGroups(true);

const asUser = (row: Row | null) => row as unknown as ProviderUser | null;
const strings = (v: unknown) => (Array.isArray(v) ? (v as string[]) : []);

/** Whether a row is the caller's own user (its role, status and user management stay as they are). */
function useIsMe() {
  const session = useSession();
  return (row: Row | null) =>
    row !== null && String(row.email).toLowerCase() === session?.emailID.toLowerCase();
}

/**
 * Client Management's Users tab (issue 11; decisions/0012): the provider's own administrators and
 * consultants on the declared resource screen (`providerUserResource`) with search, role and
 * status filters, sort and paging; add / edit in a modal with the access permissions of the role
 * (a new user starts with all of them; "select all") and a consultant's assigned companies;
 * deactivate or activate after a confirmation, never one's own. A new user gets the activation
 * mail. The API refuses what the form cannot show (e.g. taking one's own user management away).
 */
export function ProviderUsersPanel() {
  const { t } = useTranslation();
  const isMe = useIsMe();
  const options = useQuery(providerUserOptionsQuery());
  const grantable = (role: unknown) => new Set(options.data?.permissions[role as ProviderUserRole] ?? []);

  const companies: PagedColumn<ProviderUser> = {
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
  };
  const section = useUserSection(providerUserResource, 'clients.providerUsers', 'provider-user', {
    declared: ['role'],
    statusWidth: 150,
    limited: companies,
    tag: (r) => isMe(r) && <Tag>{t('clients.providerUsers.you')}</Tag>,
    locked: isMe,
  });

  return (
    <ResourceSection
      resource={providerUserResource}
      base="/api/provider-users"
      queryKey={PROVIDER_USERS_KEY}
      {...section}
      extras={{
        ...section.extras,
        widths: { name: 200, role: 140 },
        renderCell: {
          ...section.extras.renderCell,
          role: (v) => (
            <Tag color={v === 'admin' ? 'purple' : 'blue'}>
              {t(`clients.providerUsers.roles.${String(v)}`)}
            </Tag>
          ),
        },
        filters: {
          ...section.extras.filters,
          role: { placeholder: t('clients.providerUsers.roleFilter'), testId: 'provider-users-role' },
        },
        RowActions: ProviderUserStatusToggle,
        fields: {
          ...section.extras.fields,
          role: { initial: () => 'consultant', disabled: isMe },
        },
        formExtra: {
          keys: ['companyIds', 'permissions'],
          loading: options.isLoading,
          // A new user starts with everything their role allows; the form narrows it.
          initial: (row) => ({
            companyIds: asUser(row)?.companies.map((c) => c.id) ?? [],
            permissions: asUser(row)?.permissions ?? [...grantable('consultant')],
          }),
          // A new role: keep what it allows of the chosen permissions.
          follow: (changed, v): FormValues | undefined =>
            changed.role === undefined
              ? undefined
              : { permissions: strings(v.permissions).filter((p) => grantable(changed.role).has(p)) },
          payload: (v) => ({
            companyIds: v.role === 'consultant' ? v.companyIds : [],
            permissions: strings(v.permissions).filter((p) => grantable(v.role).has(p)),
          }),
          render: (v, { row }) => (
            <>
              {v.role === 'consultant' && (
                <IdsItem
                  name="companyIds"
                  label={t('clients.providerUsers.companies')}
                  extra={t('clients.providerUsers.companiesHelp')}
                  rows={options.data?.companies ?? []}
                  loading={options.isLoading}
                  placeholder={t('clients.providerUsers.companiesNone')}
                  testId="provider-user-companies"
                />
              )}
              <PermissionsItem
                texts="clients.providerUsers"
                groups={GROUPS}
                grantable={grantable(v.role)}
                isDisabled={(p) => isMe(row) && p === 'users.manage'}
                selectAll
                rowGap={12}
                testId="provider-user"
              />
            </>
          ),
        },
      }}
    />
  );
}

/** Deactivate or activate a user after a confirmation; never one's own. */
function ProviderUserStatusToggle({ row }: { row: Row }) {
  const isMe = useIsMe();
  const user = row as unknown as ProviderUser;
  if (isMe(row)) return null;
  return (
    <UserStatusAction
      status={user.status}
      set={(status) => setProviderUserStatus({ id: user.id, status })}
      invalidate={[PROVIDER_USERS_KEY]}
      texts="clients.providerUsers"
      testId="provider-user"
    />
  );
}
