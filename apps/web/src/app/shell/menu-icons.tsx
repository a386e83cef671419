import type { ComponentType, ReactNode } from 'react';
import * as ICON_SET from './menu-icon-set';

/** The icons named in the shared menus, by name (menu-icon-set.ts lists them). */
export const MENU_ICONS: Readonly<Record<string, ComponentType>> = ICON_SET;

export function menuIcon(name: string | undefined): ReactNode {
  const Icon = name ? MENU_ICONS[name] : undefined;
  return Icon ? <Icon /> : undefined;
}
