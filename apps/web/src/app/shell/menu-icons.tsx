import type { ComponentType, ReactNode } from 'react';
import {
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudUploadOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  TeamOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';

/** The @ant-design/icons named in the shared menus, by name (imported one by one to stay small). */
export const MENU_ICONS: Record<string, ComponentType> = {
  AppstoreOutlined,
  BarChartOutlined,
  BellOutlined,
  CloudUploadOutlined,
  ContactsOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  TeamOutlined,
  ThunderboltOutlined,
};

export function menuIcon(name: string | undefined): ReactNode {
  const Icon = name ? MENU_ICONS[name] : undefined;
  return Icon ? <Icon /> : undefined;
}
