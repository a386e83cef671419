import { describe, expect, it } from 'vitest';
import { ADMIN_MENU, COMPANY_MENU, type MenuItem } from '@kulu/shared';
import { MENU_ICONS } from './menu-icons';

const iconNames = (items: readonly MenuItem[]): string[] =>
  items.flatMap((i) => [...(i.icon ? [i.icon] : []), ...iconNames(i.children ?? [])]);

describe('menu icons', () => {
  it('maps every icon the shared menus name', () => {
    for (const name of [...iconNames(ADMIN_MENU), ...iconNames(COMPANY_MENU)]) {
      expect(MENU_ICONS[name], name).toBeDefined();
    }
  });
});
