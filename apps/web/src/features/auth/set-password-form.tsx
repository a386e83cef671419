import { Button, Result, Spin } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { PUBLIC_ROUTES, passwordSchema, type MessageCode } from '@kulu/shared';
import { PasswordRules } from '../../components/password-rules';
import { ApiRequestError } from '../../lib/api-client';
import { errorText, fieldError } from '../../lib/form-rules';
import { linkStatus, setPassword } from './api';
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
  /**
   * Where to ask, on opening, whether the link is still open (without using it): a used or expired
   * link then says so at once, not after the form is filled (issue 37, item 17).
   */
  statusEndpoint?: string;
  /** The closed link's title (default: the API's expired message) and its new-link button. */
  closedTitleKey?: string;
  newLinkKey?: string;
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
  statusEndpoint,
  closedTitleKey,
  newLinkKey = 'auth.forgot.title',
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

  // Asked once per link; if the question itself fails (offline, rate limit), the form is shown and
  // the answer to submitting it says what is wrong.
  const status = useQuery({
    queryKey: ['link-status', statusEndpoint, token],
    queryFn: () => linkStatus(statusEndpoint!, token),
    enabled: statusEndpoint !== undefined && token.length >= 10,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });

  const expired =
    token.length < 10 ||
    status.data?.open === false ||
    (save.error instanceof ApiRequestError && save.error.code === expiredCode);
  if (!expired && status.isLoading) {
    return (
      <AuthLayout>
        <Spin spinning tip={t('auth.reset.checking')} data-testid="link-checking">
          <div style={{ minHeight: 160 }} />
        </Spin>
      </AuthLayout>
    );
  }
  if (expired) {
    return (
      <AuthLayout>
        <Result
          status="warning"
          title={closedTitleKey ? t(closedTitleKey) : t(`errors.${expiredCode}`)}
          subTitle={t('auth.setPassword.expiredHelp')}
          extra={[
            <Button type="primary" key="forgot" onClick={() => navigate(PUBLIC_ROUTES.forgotPassword)}>
              {t(newLinkKey)}
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
