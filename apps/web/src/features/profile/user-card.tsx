import { useState } from 'react';
import { Button, Flex } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@kulu/shared';
import { EditProfileModal } from './edit-profile-modal';
import { ProfileDetails } from './profile-details';

/** The user's own details, edited in a dialog. */
export function UserCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const empty = t('common.notSet');
  return (
    <Flex vertical gap={16}>
      <ProfileDetails
        items={[
          { key: 'fullName', label: t('profile.user.fullName'), children: profile.fullName },
          { key: 'email', label: t('profile.user.email'), children: profile.email },
          {
            key: 'contactNumber',
            label: t('profile.user.contactNumber'),
            children: profile.contactNumber || empty,
          },
          { key: 'address', label: t('profile.user.address'), children: profile.address || empty },
        ]}
      />
      <div>
        <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="edit-profile">
          {t('profile.user.edit')}
        </Button>
      </div>
      <EditProfileModal profile={profile} open={editing} onClose={() => setEditing(false)} />
    </Flex>
  );
}
