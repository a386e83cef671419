import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { clientDetailPath } from '@kulu/shared';
import { AppModal } from '../../components/app-modal';
import { ClientProfileForm } from './client-profile-form';

/**
 * Add Customer (spec §2): the profile and the customer's type; the API creates the client and its
 * first user and mails the activation link. The new customer then opens on its sections.
 */
export function AddCustomerModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AppModal
      open={open}
      title={t('clients.add.title')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={920}
    >
      <ClientProfileForm
        onCancel={onClose}
        onSaved={(saved) => {
          onClose();
          void navigate(clientDetailPath(saved.client.id));
        }}
      />
    </AppModal>
  );
}
