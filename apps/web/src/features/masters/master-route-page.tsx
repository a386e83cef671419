import type { MasterKey } from '@kulu/shared';
import i18n from '../../lib/i18n';
import { registerMasterLabels } from './labels';
import { MasterPage } from './master-page';

registerMasterLabels(i18n);

/** /admin/master/<menuKey>: the page of the master resource the route table names by its key. */
export function MasterRoutePage({ masterKey }: { masterKey: MasterKey }) {
  return <MasterPage masterKey={masterKey} />;
}
