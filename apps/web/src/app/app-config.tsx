import { useEffect, type ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { useTranslation } from 'react-i18next';
import { antdThemeFor, appThemeById } from '../lib/themes';
import { useSession } from '../lib/session';
import { antdLocale } from './antd-locales';

/**
 * antd theme (the user's application theme) and locale (the interface language). antd's App
 * (message, modal) is provided by the shell, so that the login page does not load it. The locales
 * are antd's ES modules (`antd/locale/*` is the CommonJS copy, a second en_US beside ConfigProvider's
 * own); no `tooltip.unique` here, the build leaves its popup machinery out (vite.config.ts). The Finnish one completed in antd-locales.ts.
 */
export function AppConfig({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const session = useSession();
  const appTheme = appThemeById(session?.applicationThemeID);

  useEffect(() => {
    document.body.dataset.theme = String(appTheme.id);
    document.body.dataset.themeMode = appTheme.dark ? 'dark' : 'light';
  }, [appTheme]);

  return (
    <ConfigProvider locale={antdLocale(i18n.language === 'fi' ? 'fi' : 'en')} theme={antdThemeFor(appTheme)}>
      {children}
    </ConfigProvider>
  );
}
