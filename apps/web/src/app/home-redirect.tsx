import { Navigate } from 'react-router';
import { PUBLIC_ROUTES, homePathFor } from '@kulu/shared';
import { useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';

/** `/`: the user's first page when logged in, else the login page. */
export function HomeRedirect() {
  const session = useSession();
  usePageTitle('pageTitle.home');
  const to = session ? homePathFor(session.roleID, session.acessPermissions) : PUBLIC_ROUTES.login;
  return <Navigate to={to} replace />;
}
