import { Suspense, useState } from 'react';
import { App, Grid, Layout, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useLayoutSettings } from '../../lib/layout-settings';
import { useSession } from '../../lib/session';
import { SourceLink } from '../../components/source-link';
import { PageLoader } from '../page-loader';
import { AppHeader } from './app-header';
import { SideMenu } from './side-menu';
import { SiderBrand } from './sider-brand';
import { useClientInfo } from './use-client-info';
import { useScrolledPast } from './use-scrolled-past';

/** Header minimize offset (spec §9). */
const HEADER_MINIMIZE_OFFSET = 200;

/** The logged-in shell: menu on the left, header on top, the page in the middle. */
export function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const layout = useLayoutSettings();
  const { token } = theme.useToken();
  const [collapsed, setCollapsed] = useState(false);
  const minimized = useScrolledPast(HEADER_MINIMIZE_OFFSET);
  const phone = Grid.useBreakpoint().sm === false;
  useClientInfo();
  if (!session) return null;

  return (
    <App>
      <Layout
        className={`app-shell layout-${layout.layout} aside-${layout.aside}`}
        data-layout={layout.layout}
        data-aside={layout.aside}
        data-header={layout.header}
        style={{ background: token.colorBgLayout }}
      >
        <Layout.Sider
          theme={layout.aside}
          width={248}
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          breakpoint="lg"
          className="app-sider"
          style={{
            borderRight: layout.aside === 'light' ? `1px solid ${token.colorBorderSecondary}` : undefined,
          }}
        >
          <SiderBrand collapsed={collapsed} />
          <SideMenu session={session} theme={layout.aside} collapsed={collapsed} />
        </Layout.Sider>
        <Layout style={{ background: token.colorBgLayout }}>
          <AppHeader session={session} fixed={layout.header === 'fixed'} minimized={minimized} />
          <Layout.Content className="app-content">
            {phone && (
              <Typography.Text strong className="phone-company" data-testid="header-company">
                {session.companyName ?? 'Kulu'}
              </Typography.Text>
            )}
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
          <Layout.Footer
            className="app-footer"
            style={{ background: token.colorBgLayout, color: token.colorTextSecondary }}
          >
            {t('shell.footer', { year: new Date().getFullYear() })} · <SourceLink />
          </Layout.Footer>
        </Layout>
      </Layout>
    </App>
  );
}
