import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';
import { setSessionExpiredHandler } from '../lib/api';
import { endSession } from '../lib/session';
import { returnTo } from './return-to';

/**
 * Spec §4/§8: a 401 to a call that carried a token → storage cleared, back to the login page,
 * which shows the alert 'Your session has expired, please login again' and, after signing in
 * again, returns to the page the user was on.
 */
export function SessionExpiryBridge() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  const here = useRef('');
  here.current = pathname + search;

  useEffect(() => {
    setSessionExpiredHandler(() => {
      endSession('sessionExpired');
      queryClient.clear();
      navigate(PUBLIC_ROUTES.login, { replace: true, state: returnTo(here.current) });
    });
  }, [navigate, queryClient]);

  return null;
}
