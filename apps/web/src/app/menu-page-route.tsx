import { useSession } from '../lib/session';
import { usePageTitle } from '../lib/use-page-title';
import { ForbiddenPage, LockedOutPage, MasterRoutePage, MENU_PAGES, PlaceholderPage } from './pages';
import { canOpenPage, type PageRoute } from './routes';

/**
 * A page of the route table: 403 without the permission, the locked-out page while the company
 * has no contract in force, else its screen (a master page gets
 * its typed resource key from the route table) or the placeholder.
 */
export function MenuPageRoute({ route }: { route: PageRoute }) {
  const session = useSession();
  usePageTitle(route.titleKey);
  if (!session || !canOpenPage(route.path, session.roleID, session.acessPermissions))
    return <ForbiddenPage />;
  // Every menu page is client data: a locked-out company sees what happens next instead.
  if (session.menuDisabled) return <LockedOutPage />;
  // A new page per resource: its own list state, selection and dialog.
  if (route.masterKey) return <MasterRoutePage key={route.masterKey} masterKey={route.masterKey} />;
  const Page = route.page ? MENU_PAGES[route.page] : undefined;
  return Page ? <Page /> : <PlaceholderPage titleKey={route.titleKey} />;
}
