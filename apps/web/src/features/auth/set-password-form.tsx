import { Button, Result } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PUBLIC_ROUTES, passwordSchema, type MessageCode } from '@kulu/shared';
import { PasswordRules } from '../../components/password-rules';
import { ApiRequestError } from '../../lib/api-client';
import { errorText, fieldError } from '../../lib/form-rules';
import { setPassword } from './api';
import { AuthAlert, AuthField, AuthHeading, AuthSubmit, BackToLogin, useAuthForm } from './auth-form';
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
  const labels = {
    password: t('auth.fields.newPassword'),
    confirmPassword: t('auth.fields.confirmPassword'),
  };
  const form = useAuthForm<keyof Values>(labels, {
    password: (v) => fieldError(t, labels.password, v, passwordSchema),
    confirmPassword: (v, values) =>
      fieldError(t, labels.confirmPassword, v) ??
      (v !== values.password ? t('auth.password.mismatch') : undefined),
  });
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

  return (
    <AuthLayout>
      <AuthHeading title={t(titleKey)} subtitle={t(subtitleKey)} />
      {save.error && <AuthAlert type="error" title={errorText(t, save.error)} />}
      <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
        <AuthField {...form.field('password')} type="password" autoComplete="new-password" autoFocus />
        <AuthField {...form.field('confirmPassword')} type="password" autoComplete="new-password" />
        <PasswordRules value={form.values.password} />
        <AuthSubmit loading={save.isPending}>{t(submitKey)}</AuthSubmit>
      </form>
      <BackToLogin />
    </AuthLayout>
  );
}
