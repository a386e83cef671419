import { usePageTitle } from '../../lib/use-page-title';
import { SetPasswordForm } from './set-password-form';

/** Customer User Activation: the invited user sets a first password, `#/activate?token=…`. */
export function ActivatePage() {
  usePageTitle('auth.activate.title');
  return (
    <SetPasswordForm
      endpoint="/api/Account/Activate"
      titleKey="auth.activate.title"
      subtitleKey="auth.activate.subtitle"
      submitKey="auth.activate.submit"
      doneCode="activated"
      expiredCode="activationLinkExpired"
    />
  );
}
