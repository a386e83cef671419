import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { emailSchema } from '@kulu/shared';
import { errorText, fieldError } from '../../lib/form-rules';
import { usePageTitle } from '../../lib/use-page-title';
import { forgotPassword } from './api';
import { AuthAlert, AuthHeading, AuthSubmit, BackToLogin, EmailField, useAuthForm } from './auth-form';
import { AuthLayout } from './auth-layout';

/** Asks for a reset link by email. */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  usePageTitle('auth.forgot.title');
  const send = useMutation({ mutationFn: (v: { email: string }) => forgotPassword(v.email) });
  const labels = { email: t('auth.fields.email') };
  const form = useAuthForm(labels, { email: (v) => fieldError(t, labels.email, v, emailSchema) });

  return (
    <AuthLayout>
      <AuthHeading title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')} />
      {send.isSuccess && (
        <AuthAlert type="success" title={t('errors.resetMailSent')} data-testid="forgot-sent" />
      )}
      {send.error && <AuthAlert type="error" title={errorText(t, send.error)} />}
      <form noValidate onSubmit={form.handleSubmit((v) => send.mutate(v))}>
        <EmailField {...form.field('email')} autoComplete="email" />
        <AuthSubmit loading={send.isPending}>{t('auth.forgot.submit')}</AuthSubmit>
      </form>
      <BackToLogin />
    </AuthLayout>
  );
}
