import type { ComponentType } from 'react';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';
import { ForbiddenPage } from './pages';

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
  const { t } = useTranslation();
  const session = useSession();
  usePageTitle(titleKey);
  if (allowed && !allowed(session?.roleID ?? 0)) return <ForbiddenPage />;
  return (
    <>
      {session?.menuDisabled && (
        <Alert
          type="warning"
          showIcon
          title={t('errors.menuDisabled')}
          className="menu-disabled-alert"
          data-testid="menu-disabled"
        />
      )}
      <Page />
    </>
  );
}
