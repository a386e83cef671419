import { Alert, Button, Flex, Form } from 'antd';
// The two inputs alone: antd's Input index also brings TextArea, Search and OTP (~29 KB gzip).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PUBLIC_ROUTES, languageCodeOf, type MessageCode } from '@kulu/shared';
import { NativeSelect } from '../../components/native-select';
import { errorText, fieldRules } from '../../lib/form-rules';
import { setLanguage } from '../../lib/i18n';
import { keepLanguagePickedSignedOut, signedInLanguage } from '../../lib/settings-api';
import { sessionEndReason, startSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { operatorsQuery, requestToken, type LoginValues } from './api';
import { AuthLayout } from './auth-layout';

/** Login: email, password and (optionally) the operator to work with. */
export function LoginPage() {
  const { t } = useTranslation();
  usePageTitle('auth.login.title');
  const notice = (useLocation().state as { notice?: MessageCode } | null)?.notice ?? sessionEndReason();
  // Also fetches the XSRF cookie that the login POST needs.
  const operators = useQuery(operatorsQuery);
  const login = useMutation({
    mutationFn: requestToken,
    onSuccess: async (res) => {
      // The language picked on this page, else the user's saved one; the session start then leaves
      // this page, and a language picked here is saved on the user.
      await setLanguage(signedInLanguage(languageCodeOf(res.languageID)));
      startSession(res);
      // Saving it may fail; the switch itself holds, as with the header's switch.
      await keepLanguagePickedSignedOut().catch(() => undefined);
    },
  });

  return (
    <AuthLayout>
      <h1 className="auth-title">{t('auth.login.title')}</h1>
      <p className="auth-subtitle">{t('auth.login.subtitle')}</p>
      {notice && !login.error && (
        <Alert
          type={notice === 'sessionExpired' ? 'warning' : 'success'}
          showIcon
          title={t(`errors.${notice}`)}
          style={{ marginBottom: 16 }}
          data-testid="login-notice"
        />
      )}
      {login.error && (
        <Alert
          type="error"
          showIcon
          title={errorText(t, login.error)}
          style={{ marginBottom: 16 }}
          data-testid="login-error"
        />
      )}
      <Form<LoginValues>
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => login.mutate(v)}
        size="large"
      >
        <Form.Item name="email" label={t('auth.fields.email')} rules={fieldRules(t, t('auth.fields.email'))}>
          <Input prefix={<MailOutlined />} type="email" autoComplete="username" autoFocus />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('auth.fields.password')}
          rules={fieldRules(t, t('auth.fields.password'))}
        >
          <Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="operatorId" label={t('auth.fields.operator')}>
          <NativeSelect
            numeric
            placeholder={
              operators.isError ? errorText(t, operators.error) : t('auth.login.operatorPlaceholder')
            }
            options={operators.data?.map((o) => ({ value: o.id, label: o.name })) ?? []}
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
      <p className="auth-footnote">
        {t('auth.login.noAccount')} <Link to={PUBLIC_ROUTES.signup}>{t('auth.signup.link')}</Link>
      </p>
    </AuthLayout>
  );
}
