import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePageTitle } from '../lib/use-page-title';

export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('pageTitle.notFound');
  return (
    <div className="center-page">
      <Result
        status="404"
        title="404"
        subTitle={t('common.notFound.text')}
        extra={
          <Button type="primary" onClick={() => navigate('/')}>
            {t('common.backHome')}
          </Button>
        }
        data-testid="not-found"
      />
    </div>
  );
}
