import { Navigate, Outlet } from 'react-router';
import { useSession } from '../lib/session';

/** Login and sign-up: a logged-in user goes on to their home page. */
export function PublicOnly() {
  return useSession() ? <Navigate to="/" replace /> : <Outlet />;
}
