import { Navigate, Outlet } from 'react-router';
import { PUBLIC_ROUTES } from '@kulu/shared';
import { useSession } from '../lib/session';

/** Pages behind the login: without a session, to /login. */
export function RequireAuth() {
  return useSession() ? <Outlet /> : <Navigate to={PUBLIC_ROUTES.login} replace />;
}
