import { Alert, Button, Flex, Form, Input, Select, Typography } from 'antd';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PUBLIC_ROUTES, languageCodeOf, type MessageCode } from '@kulu/shared';
import { errorText, fieldRules } from '../../lib/form-rules';
import { setLanguage } from '../../lib/i18n';
import { startSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { operatorsQuery, requestToken, type LoginValues } from './api';
import { AuthLayout } from './auth-layout';

/** Login: email, password and (optionally) the operator to work with. */
export function LoginPage() {
  const { t } = useTranslation();
  usePageTitle('auth.login.title');
  const notice = (useLocation().state as { notice?: MessageCode } | null)?.notice;
  // Also fetches the XSRF cookie that the login POST needs.
  const operators = useQuery(operatorsQuery);
  const login = useMutation({
    mutationFn: requestToken,
    onSuccess: async (res) => {
      // The user's saved language wins after login; the session start then leaves this page.
      await setLanguage(languageCodeOf(res.languageID));
      startSession(res);
    },
  });

  return (
    <AuthLayout>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t('auth.login.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('auth.login.subtitle')}</Typography.Paragraph>
      {notice && !login.error && <Alert type="success" showIcon title={t(`errors.${notice}`)} style={{ marginBottom: 16 }} />}
      {login.error && (
        <Alert type="error" showIcon title={errorText(t, login.error)} style={{ marginBottom: 16 }} data-testid="login-error" />
      )}
      <Form<LoginValues> layout="vertical" requiredMark={false} onFinish={(v) => login.mutate(v)} size="large">
        <Form.Item name="email" label={t('auth.fields.email')} rules={fieldRules(t, t('auth.fields.email'))}>
          <Input prefix={<MailOutlined />} type="email" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item name="password" label={t('auth.fields.password')} rules={fieldRules(t, t('auth.fields.password'))}>
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="operatorId" label={t('auth.fields.operator')}>
          <Select
            allowClear
            placeholder={t('auth.login.operatorPlaceholder')}
            loading={operators.isLoading}
            options={operators.data?.map((o) => ({ value: o.id, label: o.name }))}
            notFoundContent={operators.isError ? errorText(t, operators.error) : undefined}
            data-testid="login-operator"
          />
        </Form.Item>
        <Flex justify="flex-end" style={{ marginTop: -8, marginBottom: 16 }}>
          <Link to={PUBLIC_ROUTES.forgotPassword}>{t('auth.login.forgot')}</Link>
        </Flex>
        <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
          {t('auth.login.submit')}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        {t('auth.login.noAccount')} <Link to={PUBLIC_ROUTES.signup}>{t('auth.signup.link')}</Link>
      </Typography.Paragraph>
    </AuthLayout>
  );
}
