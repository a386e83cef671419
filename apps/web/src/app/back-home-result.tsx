import { Button, Result, type ResultProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** A page that cannot be shown (not found, forbidden): what happened and a button back home. */
export function BackHomeResult({
  status,
  title,
  subTitle,
  testId,
}: Pick<ResultProps, 'status' | 'title' | 'subTitle'> & { testId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('common.backHome')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
