import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { isProviderRole } from '@kulu/shared';
import { ClientSelect } from './client-select';
import { subCompanyOptionsQuery } from '../lib/organization-api';
import { useSession } from '../lib/session';
import { useChosenClient } from '../lib/chosen-client';
import { FilterField, PeriodField, SubCompanyField } from './filter-fields';

/** Whether the caller is a provider user (admin or consultant), who picks the client of a page. */
export function useProvider(): boolean {
  const session = useSession();
  return session ? isProviderRole(session.roleID) : false;
}

/** Whether the caller picks the client (admins and consultants) and whether one is picked. */
export function useClientChoice(clientId: number | undefined) {
  const provider = useProvider();
  return { provider, ready: !provider || clientId !== undefined };
}

/** The period a filter shows: the chosen one, else the one the answer covers (`YYYY-MM` months). */
export const shownPeriodOf = (
  period: [Dayjs, Dayjs] | null | undefined,
  covered: { from: string; to: string } | undefined,
): [Dayjs, Dayjs] | null =>
  period ?? (covered ? [dayjs(`${covered.from}-01`), dayjs(`${covered.to}-01`)] : null);

/**
 * The state of a page's slice filters (client, period, sub-company): what its query sends for them
 * (`params`), whether it may ask yet (`ready`), and the props of its SliceFilters (`filters`, a new
 * client starting again with the default period and every sub-company). The client starts at
 * `initialClientId` (a link naming it), else the one the provider user chose on another page.
 */
export function useSlice(initialClientId?: number) {
  const [clientId, setClientId] = useChosenClient(initialClientId);
  const [period, setPeriod] = useState<[Dayjs, Dayjs] | null>(null);
  const [subCompanyId, setSubCompanyId] = useState<number | undefined>();
  const { provider, ready } = useClientChoice(clientId);
  const params = {
    clientId: provider ? clientId : undefined,
    from: period?.[0].format('YYYY-MM'),
    to: period?.[1].format('YYYY-MM'),
    subCompanyId,
  };
  const filters = {
    clientId,
    onClientChange: (id: number | undefined) => {
      setClientId(id);
      setPeriod(null);
      setSubCompanyId(undefined);
    },
    onPeriodChange: setPeriod,
    subCompanyId,
    onSubCompanyChange: setSubCompanyId,
  };
  return { clientId, period, subCompanyId, provider, ready, params, filters };
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
