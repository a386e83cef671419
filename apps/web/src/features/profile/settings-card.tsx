import { App, Divider, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Profile } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { currentLang, type Lang } from '../../lib/i18n';
import { changeLanguage } from '../../lib/settings-api';
import { LogoUpload } from './logo-upload';
import { ThemePicker } from './theme-picker';

/** Language, company logo and application theme of the user. */
export function SettingsCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <>
      <Typography.Title level={5}>{t('profile.settings.language')}</Typography.Title>
      <Radio.Group
        value={currentLang()}
        onChange={(e) => {
          changeLanguage(e.target.value as Lang)
            .then(() => void message.success(t('profile.settings.saved')))
            .catch((err: unknown) => void message.error(errorText(t, err)));
        }}
        options={[
          { value: 'en', label: 'English' },
          { value: 'fi', label: 'Suomi' },
        ]}
        data-testid="settings-language"
      />
      {profile.company && (
        <>
          <Divider />
          <Typography.Title level={5}>{t('profile.settings.logo')}</Typography.Title>
          <LogoUpload />
        </>
      )}
      <Divider />
      <Typography.Title level={5}>{t('profile.settings.theme')}</Typography.Title>
      <ThemePicker />
    </>
  );
}
