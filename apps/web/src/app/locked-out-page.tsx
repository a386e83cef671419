import { LockOutlined } from '@ant-design/icons';
import { Button, Flex, Result, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ACCOUNT_ROUTES } from '@kulu/shared';

/**
 * A page of the menu opened by a user whose company is locked out (terminated, or no contract in
 * force today; spec §4): instead of the page and its refused requests, what has happened, what
 * happens next and what the user can still do. "Check again" re-reads the client info, so the
 * page opens as soon as a contract is in force.
 */
export function LockedOutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <Result
      status="warning"
      icon={<LockOutlined />}
      title={t('lockedOut.title')}
      subTitle={
        <Flex vertical gap={8} style={{ maxWidth: 640, margin: '0 auto' }}>
          <Typography.Text>{t('lockedOut.kept')}</Typography.Text>
          <Typography.Text>{t('lockedOut.next')}</Typography.Text>
        </Flex>
      }
      extra={[
        <Button
          key="check"
          type="primary"
          onClick={() => void queryClient.invalidateQueries({ queryKey: ['clientInfo'] })}
        >
          {t('lockedOut.checkAgain')}
        </Button>,
        <Button key="profile" onClick={() => navigate(ACCOUNT_ROUTES.profile)}>
          {t('pageTitle.profile')}
        </Button>,
      ]}
      data-testid="locked-out"
    />
  );
}
