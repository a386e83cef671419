import { usePageTitle } from '../../lib/use-page-title';
import { SetPasswordForm } from './set-password-form';

/** Reset Password: the link of the reset mail, `#/reset-password?token=…`. */
export function ResetPasswordPage() {
  usePageTitle('auth.reset.title');
  return (
    <SetPasswordForm
      endpoint="/api/Account/ReSetPassword"
      titleKey="auth.reset.title"
      subtitleKey="auth.reset.subtitle"
      submitKey="auth.reset.submit"
      doneCode="passwordReset"
      expiredCode="resetLinkExpired"
      statusEndpoint="/api/Account/ResetLinkStatus"
      closedTitleKey="auth.reset.linkClosed"
      newLinkKey="auth.reset.newLink"
    />
  );
}
