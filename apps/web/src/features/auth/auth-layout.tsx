import type { ReactNode } from 'react';
import { Flex, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { KuluMark } from '../../components/kulu-mark';
import { LanguageSwitch } from '../../components/language-switch';
import { SourceLink } from '../../components/source-link';

/** The frame of the public pages: a brand panel on the left, the form on the right. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  return (
    <div className="auth-page" style={{ background: token.colorBgContainer }}>
      <aside className="auth-aside">
        <div className="auth-aside-brand">
          <KuluMark size={36} boxProps={{ fill: '#fff', fillOpacity: 0.16 }} />
          Kulu
        </div>
        <div>
          <h1>{t('auth.aside.headline')}</h1>
          <p>{t('auth.aside.text')}</p>
          <ul className="auth-aside-points">
            <li>✓ {t('auth.aside.point1')}</li>
            <li>✓ {t('auth.aside.point2')}</li>
            <li>✓ {t('auth.aside.point3')}</li>
          </ul>
        </div>
        <small style={{ opacity: 0.85 }}>
          {t('shell.footer', { year: new Date().getFullYear() })} · <SourceLink />
        </small>
      </aside>
      <main className="auth-main" style={{ background: token.colorBgContainer }}>
        <div className="auth-main-top">
          <LanguageSwitch size="small" />
        </div>
        <div className="auth-main-body">
          <Flex vertical className={wide ? 'auth-form auth-form-wide' : 'auth-form'}>
            {children}
          </Flex>
        </div>
        <small className="auth-main-footer">
          <SourceLink />
        </small>
      </main>
    </div>
  );
}
