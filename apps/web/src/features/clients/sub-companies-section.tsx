import { Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { subCompanyResource } from '@kulu/shared';
import { ResourceSection } from '../../components/resource/resource-section';
import { subCompaniesKey, userOptionsKey, userOptionsQuery } from './users-api';
import './users-texts';

const FIELD_TEST_IDS: Record<string, string> = {
  name: 'sub-company-name',
  numberOfUsers: 'sub-company-users',
  billingPlanId: 'sub-company-plan',
};

/**
 * Sub-company management (spec §3 Sub-company: name, number of users, billing plan; §8 "Sub-company
 * name already exists") on the declared resource screen (`subCompanyResource`): search, sort and
 * paging, add / edit in a modal, delete after a confirmation (refused with the API's message while
 * the sub-company is in use). The billing plan's choices come from the sections' options.
 */
export function SubCompaniesSection({ clientId }: { clientId: number }) {
  const { t } = useTranslation();
  const options = useQuery(userOptionsQuery(clientId));
  const key = subCompaniesKey(clientId);
  return (
    <ResourceSection
      resource={subCompanyResource}
      base={`/api/clients/${clientId}/sub-companies`}
      queryKey={key}
      invalidate={[key, userOptionsKey(clientId)]}
      texts={{
        add: t('clients.subCompanies.add'),
        addTitle: t('clients.subCompanies.addTitle'),
        editTitle: t('clients.subCompanies.editTitle'),
        empty: t('clients.subCompanies.empty'),
        search: t('clients.subCompanies.search'),
        edit: t('clients.subCompanies.edit'),
        delete: t('clients.subCompanies.delete'),
        deleteConfirm: t('clients.subCompanies.deleteConfirm'),
        deleteHelp: t('clients.subCompanies.deleteHelp'),
      }}
      testIds={{
        root: 'client-sub-companies',
        table: 'sub-companies-table',
        add: 'sub-company-add',
        form: 'sub-company-form',
        field: (k) => FIELD_TEST_IDS[k] ?? `sub-company-${k}`,
        edit: 'sub-company-edit',
        delete: 'sub-company-delete',
      }}
      extras={{
        intro: <Typography.Paragraph type="secondary">{t('clients.subCompanies.help')}</Typography.Paragraph>,
        widths: { numberOfUsers: 170, userCount: 190 },
        // The spec's "Sub-company name already exists" belongs on the name.
        errorFields: { subCompanyNameExists: 'name' },
        fields: {
          numberOfUsers: { initial: () => '0', item: { extra: t('clients.subCompanies.numberOfUsersHelp') } },
          billingPlanId: {
            input: () => (
              <Select<number | null>
                allowClear
                loading={options.isLoading}
                placeholder={t('clients.subCompanies.billingPlanNone')}
                options={(options.data?.billingPlans ?? []).map((p) => ({ value: p.id, label: p.name }))}
                data-testid="sub-company-plan"
              />
            ),
          },
        },
      }}
    />
  );
}
