import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../lib/use-page-title';
import { BackHomeResult } from './back-home-result';

export function NotFoundPage() {
  const { t } = useTranslation();
  usePageTitle('pageTitle.notFound');
  return (
    <div className="center-page">
      <BackHomeResult status="404" title="404" subTitle={t('common.notFound.text')} testId="not-found" />
    </div>
  );
}
