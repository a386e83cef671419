import { Alert, Avatar, Card, Flex, Skeleton, Tabs, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { roleKeyOf } from '@kulu/shared';
import { PageHeading } from '../../components/page-heading';
import { errorText } from '../../lib/form-rules';
import { AccountCard } from './account-card';
import { profileQuery } from './api';
import { OperatorContractsCard } from './operator-contracts-card';
import { OperatorContractsSection } from '../../components/operator-contracts-section';
import { useSession } from '../../lib/session';
import { SettingsCard } from './settings-card';
import { UserCard } from './user-card';

/** My Profile: account, user, operator contract details and settings (spec §2). */
export function ProfilePage() {
  const { t } = useTranslation();
  const { data: profile, isLoading, error } = useQuery(profileQuery);
  const role = profile ? roleKeyOf(profile.roleID) : undefined;
  const session = useSession();
  // The company's own operator contracts, editable with documents where the user may manage them.
  const manageContracts =
    !!profile?.company &&
    !session?.menuDisabled &&
    !!session?.acessPermissions.includes('clientMasters.operatorContracts');

  return (
    <>
      <PageHeading title={t('pageTitle.profile')} />
      {error && <Alert type="error" showIcon title={errorText(t, error)} style={{ marginBottom: 16 }} />}
      {isLoading || !profile ? (
        <Card>
          <Skeleton active avatar paragraph={{ rows: 6 }} />
        </Card>
      ) : (
        <Flex vertical gap={16}>
          <Card>
            <Flex align="center" gap={16}>
              <Avatar size={56} icon={<UserOutlined />} />
              <div>
                <Typography.Title level={4} style={{ margin: 0 }}>
                  {profile.fullName}
                </Typography.Title>
                <Typography.Text type="secondary">
                  {[role && t(`roles.${role}`), profile.company?.name].filter(Boolean).join(' · ')}
                </Typography.Text>
              </div>
            </Flex>
          </Card>
          <Card styles={{ body: { paddingTop: 4 } }}>
            <Tabs
              items={[
                {
                  key: 'account',
                  label: t('profile.tabs.account'),
                  children: <AccountCard profile={profile} />,
                },
                { key: 'user', label: t('profile.tabs.user'), children: <UserCard profile={profile} /> },
                {
                  key: 'contracts',
                  label: t('profile.tabs.operatorContracts'),
                  children:
                    manageContracts && profile.company ? (
                      <OperatorContractsSection clientId={profile.company.id} />
                    ) : (
                      <OperatorContractsCard contracts={profile.operatorContracts} />
                    ),
                },
                {
                  key: 'settings',
                  label: t('profile.tabs.settings'),
                  children: <SettingsCard profile={profile} />,
                },
              ]}
            />
          </Card>
        </Flex>
      )}
    </>
  );
}
