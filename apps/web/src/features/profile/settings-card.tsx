import { App, Divider, Radio, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ALERT_DIGEST_LABELS, ALERT_DIGESTS, type AlertDigest, type Profile } from '@kulu/shared';
import { errorText } from '../../lib/form-rules';
import { currentLang, type Lang } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { changeLanguage, saveSettings } from '../../lib/settings-api';
import { profileQuery } from './api';
import { LogoUpload } from './logo-upload';
import { ThemePicker } from './theme-picker';

/** Language, company logo and application theme of the user. */
export function SettingsCard({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // The alert digest goes to holders of the `alerts` permission only (decision 0026).
  const alerts = !!useSession()?.acessPermissions.includes('alerts');
  const saveDigest = (alertDigest: AlertDigest) =>
    saveSettings({ alertDigest })
      .then(async () => {
        await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
        void message.success(t('profile.settings.saved'));
      })
      .catch((err: unknown) => void message.error(errorText(t, err)));
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
      {alerts && (
        <>
          <Divider />
          <Typography.Title level={5}>{t('profile.settings.alertDigest')}</Typography.Title>
          <Radio.Group
            value={profile.alertDigest}
            onChange={(e) => void saveDigest(e.target.value as AlertDigest)}
            options={ALERT_DIGESTS.map((d) => ({ value: d, label: ALERT_DIGEST_LABELS[d][currentLang()] }))}
            data-testid="settings-alert-digest"
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('profile.settings.alertDigestHelp')}
          </Typography.Paragraph>
        </>
      )}
      <Divider />
      <Typography.Title level={5}>{t('profile.settings.theme')}</Typography.Title>
      <ThemePicker />
    </>
  );
}
