import { registerTexts } from '../../lib/register-texts';
import { InvoiceUsersPage } from './invoice-users-page';
import { PlanDetailsPage } from './plan-details-page';

/** Section titles of the company screens reused on the provider's client page (spec §2). */
const TEXTS = {
  en: { sections: { invoiceUsers: 'Invoice user management', planDetails: 'Plan details' } },
  fi: { sections: { invoiceUsers: 'Laskun käyttäjien hallinta', planDetails: 'Liittymähallinta' } },
} as const;

registerTexts('clients', TEXTS);

/** Invoice User Management of the chosen client: the company's screen, `clientId` for the API. */
export function InvoiceUsersSection({ clientId }: { clientId: number }) {
  return <InvoiceUsersPage clientId={clientId} />;
}

/** Plan Details of the chosen client: the company's screen, `clientId` for the API. */
export function PlanDetailsSection({ clientId }: { clientId: number }) {
  return <PlanDetailsPage clientId={clientId} />;
}
