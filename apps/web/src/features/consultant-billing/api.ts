import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ConsultantBillingList, ConsultantBillingOptions, ConsultantBillingQuery } from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { queryString, REPORTS_KEY } from '../../lib/reports-api';

export type ConsultantBillingParams = Partial<ConsultantBillingQuery>;

export const consultantBillingQuery = (params: ConsultantBillingParams) =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'consultant-billing', params],
    queryFn: ({ signal }) =>
      api.get<ConsultantBillingList>(`/api/reports/consultant-billing?${queryString({ ...params })}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const consultantOptionsQuery = () =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'consultant-billing', 'options'],
    queryFn: ({ signal }) =>
      api.get<ConsultantBillingOptions>('/api/reports/consultant-billing/options', { signal }),
  });

/** The workbook of every row of the filters, with a totals row. */
export function exportConsultantBilling(params: ConsultantBillingParams): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = queryString({ ...filters });
  return downloadFile(
    `/api/reports/consultant-billing/export${qs ? `?${qs}` : ''}`,
    `consultant-billing-${params.month ?? ''}.xlsx`,
  );
}
