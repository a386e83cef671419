import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleKeyOf, type Profile } from '@kulu/shared';
import { ProfileDetails } from './profile-details';

/** The account: who the user is to Kulu and which company they belong to. */
export function AccountCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const role = roleKeyOf(profile.roleID);
  const company = profile.company;
  const empty = t('common.notSet');
  return (
    <ProfileDetails
      items={[
        { key: 'email', label: t('profile.account.email'), children: profile.email },
        { key: 'role', label: t('profile.account.role'), children: role ? t(`roles.${role}`) : empty },
        { key: 'company', label: t('profile.account.company'), children: company?.name ?? empty },
        { key: 'businessId', label: t('profile.account.businessId'), children: company?.businessId ?? empty },
        { key: 'address', label: t('profile.account.companyAddress'), children: company?.address || empty },
        {
          key: 'status',
          label: t('profile.account.status'),
          children: company ? (
            <Tag color={company.profileStatus === 'active' ? 'green' : 'red'}>
              {t(`profile.account.statuses.${company.profileStatus === 'active' ? 'active' : 'terminated'}`)}
            </Tag>
          ) : (
            empty
          ),
        },
      ]}
    />
  );
}
