import { useLocation } from 'react-router';
import { masterByMenuKey } from '@kulu/shared';
import i18n from '../../lib/i18n';
import { registerMasterLabels } from './labels';
import { MasterPage } from './master-page';

registerMasterLabels(i18n);

/** /admin/master/<menuKey>: the page of the master resource declared for that menu entry. */
export function MasterRoutePage() {
  const { pathname } = useLocation();
  const menuKey = pathname.split('/').filter(Boolean).pop() ?? '';
  const resource = masterByMenuKey(menuKey);
  if (!resource) return null;
  // A new page per resource: its own list state, selection and dialog.
  return <MasterPage key={resource.key} resource={resource} />;
}
