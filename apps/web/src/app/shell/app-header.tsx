import { App, Flex, Grid, Layout, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../../components/language-switch';
import { AlertBell } from '../../features/alerts/alert-bell';
import { HelpButton } from '../../features/help/help-button';
import { errorText } from '../../lib/form-rules';
import type { Session } from '../../lib/storage';
import { OperatorSwitcher } from './operator-switcher';
import { UserMenu } from './user-menu';

interface Props {
  session: Session;
  fixed: boolean;
  minimized: boolean;
}

/** Logo, operator switcher, alerts bell, help, language and the user menu; shrinks after 200 px of scroll. */
export function AppHeader({ session, fixed, minimized }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const screens = Grid.useBreakpoint();
  const classes = [
    'app-header',
    fixed ? 'header-fixed' : 'header-static',
    minimized ? 'header-minimized' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <Layout.Header
      className={classes}
      style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      data-testid="app-header"
    >
      <Flex align="center" gap={12} className="app-header-brand">
        {session.logo ? (
          <img
            src={session.logo}
            alt={session.companyName ?? ''}
            className="header-logo"
            data-testid="header-logo"
          />
        ) : null}
        {/* A phone leaves the name a letter's width beside the actions: it goes above the page. */}
        {screens.sm !== false && (
          <Typography.Text strong className="header-company" ellipsis data-testid="header-company">
            {session.companyName ?? 'Kulu'}
          </Typography.Text>
        )}
      </Flex>
      {/* A phone (390 px, the side menu collapsed beside it) has 310 px for the header: tighter gaps. */}
      <Flex align="center" gap={screens.sm ? 16 : 4} className="app-header-actions">
        <OperatorSwitcher session={session} />
        <AlertBell session={session} />
        <HelpButton />
        <LanguageSwitch size="small" onError={(err) => void message.error(errorText(t, err))} />
        <UserMenu session={session} compact={!screens.md} />
      </Flex>
    </Layout.Header>
  );
}
