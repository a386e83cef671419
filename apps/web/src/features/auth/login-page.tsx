import { useState } from 'react';
import { LockOutlined } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PUBLIC_ROUTES, languageCodeOf, type MessageCode } from '@kulu/shared';
import { NativeSelect } from '../../components/native-select';
import { errorText, fieldError } from '../../lib/form-rules';
import { setLanguage } from '../../lib/i18n';
import { keepLanguagePickedSignedOut, signedInLanguage } from '../../lib/settings-api';
import { sessionEndReason, startSession } from '../../lib/session';
import { usePageTitle } from '../../lib/use-page-title';
import { operatorsQuery, requestToken } from './api';
import { AuthAlert, AuthField, AuthHeading, AuthSubmit, EmailField, useAuthForm } from './auth-form';
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
  const labels = { email: t('auth.fields.email'), password: t('auth.fields.password') };
  const form = useAuthForm(labels, {
    email: (v) => fieldError(t, labels.email, v),
    password: (v) => fieldError(t, labels.password, v),
  });
  const [operatorId, setOperatorId] = useState<number | undefined>();

  return (
    <AuthLayout>
      <AuthHeading title={t('auth.login.title')} subtitle={t('auth.login.subtitle')} />
      {notice && !login.error && (
        <AuthAlert
          type={notice === 'sessionExpired' ? 'warning' : 'success'}
          title={t(`errors.${notice}`)}
          data-testid="login-notice"
        />
      )}
      {login.error && <AuthAlert type="error" title={errorText(t, login.error)} data-testid="login-error" />}
      <form noValidate onSubmit={form.handleSubmit((v) => login.mutate({ ...v, operatorId }))}>
        <EmailField {...form.field('email')} autoComplete="username" />
        <AuthField
          {...form.field('password')}
          prefix={<LockOutlined />}
          type="password"
          autoComplete="current-password"
        />
        <div className="auth-field auth-field-plain">
          <label htmlFor="operatorId" className="auth-field-label">
            {t('auth.fields.operator')}
          </label>
          <NativeSelect
            id="operatorId"
            numeric
            value={operatorId}
            onChange={(v) => setOperatorId(v as number | undefined)}
            placeholder={
              operators.isError ? errorText(t, operators.error) : t('auth.login.operatorPlaceholder')
            }
            options={operators.data?.map((o) => ({ value: o.id, label: o.name })) ?? []}
            data-testid="login-operator"
          />
        </div>
        <div className="auth-form-link">
          <Link to={PUBLIC_ROUTES.forgotPassword}>{t('auth.login.forgot')}</Link>
        </div>
        <AuthSubmit loading={login.isPending} testId="login-submit">
          {t('auth.login.submit')}
        </AuthSubmit>
      </form>
      <p className="auth-footnote">
        {t('auth.login.noAccount')} <Link to={PUBLIC_ROUTES.signup}>{t('auth.signup.link')}</Link>
      </p>
    </AuthLayout>
  );
}
