import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets document.title to the translated page title (spec §2: default titles for every page). */
export function usePageTitle(titleKey: string): string {
  const { t } = useTranslation();
  const title = t(titleKey);
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);
  return title;
}
