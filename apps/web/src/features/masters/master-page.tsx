import { useTranslation } from 'react-i18next';
import { MASTER_RESOURCES, type MasterKey } from '@kulu/shared';
import { ResourceSection } from '../../components/resource/resource-section';
import { masterUrl } from '../../lib/master-url';
import { MASTERS_KEY } from './api';
import { MASTER_EXTRAS } from './extras';

const INVALIDATE = [MASTERS_KEY];
const fieldTestId = (key: string) => `field-${key}`;

/**
 * The page of any master resource: the declared resource screen (title, search, filters, a
 * server-side paged and sorted table, add/edit in the app's modal, delete with confirmation and
 * export of the current list to Excel) at `/api/masters/<path>`, plus what MASTER_EXTRAS adds.
 */
export function MasterPage({ masterKey }: { masterKey: MasterKey }) {
  const resource = MASTER_RESOURCES[masterKey];
  const { t } = useTranslation();
  return (
    <ResourceSection
      key={masterKey}
      resource={resource}
      base={masterUrl(resource)}
      queryKey={[...MASTERS_KEY, resource.path]}
      invalidate={INVALIDATE}
      exportable
      plainActions
      extras={MASTER_EXTRAS[masterKey]}
      texts={{
        title: t(`masters.titles.${resource.key}`),
        add: resource.customWrite ? t('masters.ui.upload') : t('masters.ui.add'),
        addTitle: t(`masters.modal.${resource.key}.add`),
        editTitle: t(`masters.modal.${resource.key}.edit`),
        empty: t('masters.ui.empty'),
        noMatches: t('masters.ui.noMatches'),
        search: t('masters.ui.search'),
        edit: t('masters.ui.edit'),
        delete: t('masters.ui.delete'),
        deleteConfirm: t('masters.ui.deleteConfirm'),
      }}
      testIds={{
        root: `master-page-${resource.key}`,
        table: 'master-table',
        add: 'add',
        form: 'master-form',
        save: 'master-form-save',
        field: fieldTestId,
        edit: 'edit-row',
        delete: 'delete-row',
        confirmDelete: 'confirm-delete',
      }}
    />
  );
}
