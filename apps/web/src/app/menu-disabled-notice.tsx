import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

/** Above the account pages a locked-out company can still open: why its menu is greyed. */
export function MenuDisabledNotice() {
  const { t } = useTranslation();
  return (
    <Alert
      type="warning"
      showIcon
      title={t('errors.menuDisabled')}
      className="menu-disabled-alert"
      data-testid="menu-disabled"
    />
  );
}
