import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { returnPath } from './return-to';

/** Login and sign-up: a logged-in user goes on to the page they asked for, else their home page. */
export function PublicOnly() {
  const { state } = useLocation();
  return useSession() ? <Navigate to={returnPath(state)} replace /> : <Outlet />;
}
