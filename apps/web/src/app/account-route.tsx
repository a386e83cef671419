import type { ComponentType } from 'react';
import { useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';
import { ForbiddenPage, MenuDisabledNotice } from './pages';

interface Props {
  titleKey: string;
  page: ComponentType;
  allowed?: (roleId: number) => boolean;
}

/**
 * Profile, change password and builder: titled, and the builder only for the provider admin. They
 * stay open to a locked-out company, which is told why its menu is greyed.
 */
export function AccountRoute({ titleKey, page: Page, allowed }: Props) {
  const session = useSession();
  usePageTitle(titleKey);
  if (allowed && !allowed(session?.roleID ?? 0)) return <ForbiddenPage />;
  return (
    <>
      {session?.menuDisabled && <MenuDisabledNotice />}
      <Page />
    </>
  );
}
