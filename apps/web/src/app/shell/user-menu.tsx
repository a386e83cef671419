import { Avatar, Dropdown, Flex, Typography, theme, type MenuProps } from 'antd';
import { LayoutOutlined, LockOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ACCOUNT_ROUTES, PUBLIC_ROUTES, roleKeyOf } from '@kulu/shared';
import { endSession } from '../../lib/session';
import { logout } from '../../features/auth/api';
import type { Session } from '../../lib/storage';
import { canOpenBuilder } from '../routes';

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase())
    .join('');

/** Name, role and the account actions: profile, change password, builder (admin), log out. */
export function UserMenu({ session, compact }: { session: Session; compact: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token } = theme.useToken();

  const items: MenuProps['items'] = [
    { key: ACCOUNT_ROUTES.profile, icon: <UserOutlined />, label: t('shell.user.profile') },
    { key: ACCOUNT_ROUTES.changePassword, icon: <LockOutlined />, label: t('shell.user.changePassword') },
    ...(canOpenBuilder(session.roleID)
      ? [{ key: ACCOUNT_ROUTES.builder, icon: <LayoutOutlined />, label: t('shell.user.builder') }]
      : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: t('shell.user.logout'), danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key !== 'logout') return void navigate(key);
    // The server ends the session (its token is refused from now on, issue 37); the call takes the
    // token as it starts, so the app forgets the session at once without waiting for the answer.
    void logout().catch(() => undefined);
    endSession();
    queryClient.clear();
    navigate(PUBLIC_ROUTES.login, { replace: true });
  };

  const role = roleKeyOf(session.roleID);
  return (
    <Dropdown menu={{ items, onClick }} trigger={['click']} placement="bottomRight">
      <button type="button" className="user-menu-trigger" data-testid="user-menu">
        <Flex align="center" gap={10}>
          <Avatar
            // The primary button's colour pair, which every theme keeps readable (antd's grey is not):
            // the text colour is the theme's Avatar token (dark on a dark theme's light primary).
            style={{ flex: 'none', background: token.colorPrimary }}
          >
            {initials(session.fullName) || <UserOutlined />}
          </Avatar>
          {!compact && (
            <Flex vertical className="user-menu-text">
              <Typography.Text strong ellipsis>
                {session.fullName}
              </Typography.Text>
              {role && (
                <Typography.Text type="secondary" className="user-menu-role" ellipsis>
                  {t(`roles.${role}`)}
                </Typography.Text>
              )}
            </Flex>
          )}
        </Flex>
      </button>
    </Dropdown>
  );
}
