import { Alert, Button, Form, Input, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PUBLIC_ROUTES, emailSchema } from '@kulu/shared';
import { errorText, fieldRules } from '../../lib/form-rules';
import { usePageTitle } from '../../lib/use-page-title';
import { forgotPassword } from './api';
import { AuthLayout } from './auth-layout';

/** Asks for a reset link by email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle('auth.forgot.title');
  const send = useMutation({ mutationFn: (v: { email: string }) => forgotPassword(v.email) });
  const emailLabel = t('auth.fields.email');

  return (
    <AuthLayout>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t('auth.forgot.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('auth.forgot.subtitle')}</Typography.Paragraph>
      {send.isSuccess && (
        <Alert
          type="success"
          showIcon
          title={t('errors.resetMailSent')}
          style={{ marginBottom: 16 }}
          data-testid="forgot-sent"
        />
      )}
      {send.error && (
        <Alert type="error" showIcon title={errorText(t, send.error)} style={{ marginBottom: 16 }} />
      )}
      <Form
        layout="vertical"
        requiredMark={false}
        size="large"
        onFinish={(v: { email: string }) => send.mutate(v)}
      >
        <Form.Item name="email" label={emailLabel} rules={fieldRules(t, emailLabel, emailSchema)}>
          <Input prefix={<MailOutlined />} type="email" autoComplete="email" autoFocus />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={send.isPending}>
          {t('auth.forgot.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        <Link to={PUBLIC_ROUTES.login}>{t('auth.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthLayout>
  );
}
