import { Navigate, Outlet, useLocation } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';
import { useSession } from '../lib/session';
import { returnTo } from './return-to';

/** Pages behind the login: without a session, to /login, which comes back here after signing in. */
export function RequireAuth() {
  const { pathname, search } = useLocation();
  return useSession() ? (
    <Outlet />
  ) : (
    <Navigate to={PUBLIC_ROUTES.login} replace state={returnTo(pathname + search)} />
  );
}
