import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';
import { setSessionExpiredHandler } from '../lib/api';
import { endSession } from '../lib/session';

/**
 * Spec §4/§8: a 401 to a call that carried a token → storage cleared, back to the login page,
 * which shows the alert 'Your session has expired, please login again'.
 */
export function SessionExpiryBridge() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    setSessionExpiredHandler(() => {
      endSession('sessionExpired');
      queryClient.clear();
      navigate(PUBLIC_ROUTES.login, { replace: true });
    });
  }, [navigate, queryClient]);

  return null;
}
