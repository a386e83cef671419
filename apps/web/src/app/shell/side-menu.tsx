import { useEffect, useMemo, useState } from 'react';
import { Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { menuForUser } from '@kulu/shared';
import type { Session } from '../../lib/storage';
import { ancestorKeys } from '../routes';
import { toMenuItems } from './menu-items';

interface Props {
  session: Session;
  theme: 'dark' | 'light';
  collapsed: boolean;
}

/** The role's menu from the shared route table; disabled when the client has no valid contract. */
export function SideMenu({ session, theme, collapsed }: Props) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const menu = useMemo(
    () => menuForUser(session.roleID, session.acessPermissions),
    [session.roleID, session.acessPermissions],
  );
  const items = useMemo(() => toMenuItems(menu, t, session.menuDisabled), [menu, t, session.menuDisabled]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorKeys(menu, pathname) ?? []);

  // Navigating elsewhere (a link, the address bar) opens that page's group too.
  useEffect(() => {
    const trail = ancestorKeys(menu, pathname);
    if (trail?.length) setOpenKeys((keys) => [...new Set([...keys, ...trail])]);
  }, [menu, pathname]);

  return (
    <Menu
      theme={theme}
      mode="inline"
      items={items}
      selectedKeys={[pathname]}
      {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
      onClick={({ key }) => navigate(key)}
      className="app-menu"
      data-testid="side-menu"
    />
  );
}
