import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { isProviderRole } from '@kulu/shared';
import { ClientSelect } from './client-select';
import { subCompanyOptionsQuery } from '../lib/organization-api';
import { useSession } from '../lib/session';
import { FilterField, PeriodField, SubCompanyField } from './filter-fields';

/** Whether the caller picks the client (admins and consultants) and whether one is picked. */
export function useClientChoice(clientId: number | undefined) {
  const session = useSession();
  const provider = session ? isProviderRole(session.roleID) : false;
  return { provider, ready: !provider || clientId !== undefined };
}

/**
 * The client (admins and consultants), period and sub-company filters that the reports and the
 * report archive share; the sub-companies offered are the chosen client's. Test ids are
 * `<testId>-client`, `-period` and `-sub-company`. Without `onPeriodChange` there is no period.
 */
export function SliceFilters({
  testId,
  clientId,
  onClientChange,
  period,
  onPeriodChange,
  subCompanyId,
  onSubCompanyChange,
}: {
  testId: string;
  clientId: number | undefined;
  onClientChange: (id: number | undefined) => void;
  period?: [Dayjs, Dayjs] | null;
  onPeriodChange?: (period: [Dayjs, Dayjs]) => void;
  subCompanyId: number | undefined;
  onSubCompanyChange: (id: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const { provider, ready } = useClientChoice(clientId);
  const subCompanies = useQuery(subCompanyOptionsQuery());
  const options = (subCompanies.data ?? []).filter((s) => !provider || s.clientId === clientId);
  return (
    <>
      {provider && (
        <FilterField label={t('dashboards.client')}>
          <ClientSelect value={clientId} onChange={onClientChange} testId={`${testId}-client`} />
        </FilterField>
      )}
      {onPeriodChange && (
        <PeriodField
          value={period ?? null}
          onChange={onPeriodChange}
          disabled={!ready}
          testId={`${testId}-period`}
        />
      )}
      <SubCompanyField
        options={options}
        value={subCompanyId}
        onChange={onSubCompanyChange}
        disabled={!ready}
        testId={`${testId}-sub-company`}
      />
    </>
  );
}
