import { useEffect } from 'react';
import { App } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';
import { setSessionExpiredHandler } from '../lib/api';
import { endSession } from '../lib/session';

/** Spec §4/§8: a 401 → alert, storage cleared, back to the login page. */
export function SessionExpiryBridge() {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    setSessionExpiredHandler(() => {
      endSession();
      queryClient.clear();
      navigate(PUBLIC_ROUTES.login, { replace: true });
      modal.warning({ title: t('errors.sessionExpired'), okText: t('common.ok'), className: 'session-expired-modal' });
    });
  }, [modal, t, navigate, queryClient]);

  return null;
}
