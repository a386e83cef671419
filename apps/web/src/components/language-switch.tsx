import { App, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../lib/settings-api';
import { errorText } from '../lib/form-rules';
import type { Lang } from '../lib/i18n';

/** EN | FI switch; remembered locally and, when logged in, on the user. */
export function LanguageSwitch({ size = 'middle' }: { size?: 'small' | 'middle' }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const lang = (i18n.language === 'fi' ? 'fi' : 'en') satisfies Lang;
  return (
    <Segmented<Lang>
      size={size}
      aria-label={t('common.language')}
      value={lang}
      options={[
        { value: 'en', label: 'EN', title: 'English' },
        { value: 'fi', label: 'FI', title: 'Suomi' },
      ]}
      onChange={(value) => {
        changeLanguage(value).catch((err: unknown) => void message.error(errorText(t, err)));
      }}
      data-testid="language-switch"
    />
  );
}
