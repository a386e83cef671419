import { Alert, Button, Form, Input, Result, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PUBLIC_ROUTES, passwordSchema, type MessageCode } from '@kulu/shared';
import { PasswordRules } from '../../components/password-rules';
import { ApiRequestError } from '../../lib/api-client';
import { errorText, fieldRules, matchRule } from '../../lib/form-rules';
import { setPassword } from './api';
import { AuthLayout } from './auth-layout';

interface Props {
  endpoint: string;
  titleKey: string;
  subtitleKey: string;
  submitKey: string;
  /** Shown on the login page after success. */
  doneCode: MessageCode;
  /** The API's code for an expired, used or unknown link. */
  expiredCode: MessageCode;
}

interface Values {
  password: string;
  confirmPassword: string;
}

/** Reset password and customer user activation: a new password for the token in the link. */
export function SetPasswordForm({
  endpoint,
  titleKey,
  subtitleKey,
  submitKey,
  doneCode,
  expiredCode,
}: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useSearchParams()[0].get('token') ?? '';
  const [form] = Form.useForm<Values>();
  const password = Form.useWatch('password', form);
  const save = useMutation({
    mutationFn: (v: Values) => setPassword(endpoint, { token, ...v }),
    onSuccess: () => navigate(PUBLIC_ROUTES.login, { state: { notice: doneCode } }),
  });

  const expired =
    token.length < 10 || (save.error instanceof ApiRequestError && save.error.code === expiredCode);
  if (expired) {
    return (
      <AuthLayout>
        <Result
          status="warning"
          title={t(`errors.${expiredCode}`)}
          subTitle={t('auth.setPassword.expiredHelp')}
          extra={[
            <Button type="primary" key="forgot" onClick={() => navigate(PUBLIC_ROUTES.forgotPassword)}>
              {t('auth.forgot.title')}
            </Button>,
            <Button key="login" onClick={() => navigate(PUBLIC_ROUTES.login)}>
              {t('auth.backToLogin')}
            </Button>,
          ]}
          data-testid="link-expired"
        />
      </AuthLayout>
    );
  }

  const labels = { password: t('auth.fields.newPassword'), confirm: t('auth.fields.confirmPassword') };
  return (
    <AuthLayout>
      <Typography.Title level={2} style={{ marginBottom: 4 }}>
        {t(titleKey)}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(subtitleKey)}</Typography.Paragraph>
      {save.error && (
        <Alert type="error" showIcon title={errorText(t, save.error)} style={{ marginBottom: 16 }} />
      )}
      <Form form={form} layout="vertical" requiredMark={false} size="large" onFinish={(v) => save.mutate(v)}>
        <Form.Item
          name="password"
          label={labels.password}
          rules={fieldRules(t, labels.password, passwordSchema)}
        >
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={labels.confirm}
          dependencies={['password']}
          rules={[...fieldRules(t, labels.confirm), matchRule(t, 'password')]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <PasswordRules value={password} />
        <Button type="primary" htmlType="submit" block loading={save.isPending}>
          {t(submitKey)}
        </Button>
      </Form>
      <Typography.Paragraph style={{ marginTop: 24, textAlign: 'center' }}>
        <Link to={PUBLIC_ROUTES.login}>{t('auth.backToLogin')}</Link>
      </Typography.Paragraph>
    </AuthLayout>
  );
}
