import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import type { MenuItem } from '@kulu/shared';
import { menuIcon } from './menu-icons';

type Items = NonNullable<MenuProps['items']>;

/** The shared menu as antd Menu items; keys are the route paths. */
export function toMenuItems(items: readonly MenuItem[], t: TFunction, disabled: boolean): Items {
  return items.map((item) => ({
    key: item.path,
    icon: menuIcon(item.icon),
    label: t(item.titleKey),
    disabled,
    children: item.children?.length ? toMenuItems(item.children, t, disabled) : undefined,
  }));
}
