import { useTranslation } from 'react-i18next';
import { BackHomeResult } from './back-home-result';

/** A logged-in user opened a page their permissions do not include. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <BackHomeResult
      status="403"
      title={t('common.forbidden.title')}
      subTitle={t('errors.forbidden')}
      testId="forbidden"
    />
  );
}
