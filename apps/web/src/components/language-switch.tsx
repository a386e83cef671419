import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Lang } from '../lib/i18n';
import { changeLanguage } from '../lib/settings-api';

interface Props {
  size?: 'small' | 'middle';
  /** Saving the choice on the user failed (the switch itself still holds). */
  onError?: (err: unknown) => void;
}

const OPTIONS: { value: Lang; label: string; title: string }[] = [
  { value: 'en', label: 'EN', title: 'English' },
  { value: 'fi', label: 'FI', title: 'Suomi' },
];

/** EN | FI switch; remembered locally and, when logged in, on the user. */
export function LanguageSwitch({ size = 'middle', onError }: Props) {
  const { t, i18n } = useTranslation();
  const lang: Lang = i18n.language === 'fi' ? 'fi' : 'en';
  return (
    <Space.Compact role="group" aria-label={t('common.language')} data-testid="language-switch">
      {OPTIONS.map((o) => (
        <Button
          key={o.value}
          size={size}
          type={o.value === lang ? 'primary' : 'default'}
          title={o.title}
          aria-pressed={o.value === lang}
          data-lang={o.value}
          onClick={() => {
            if (o.value !== lang) changeLanguage(o.value).catch((err: unknown) => onError?.(err));
          }}
        >
          {o.label}
        </Button>
      ))}
    </Space.Compact>
  );
}
