import { queryOptions } from '@tanstack/react-query';
import type { ConsultantBillingList, ConsultantBillingOptions, ConsultantBillingQuery } from '@kulu/shared';
import { api } from '../../lib/api';
import { exportReport, reportQuery, REPORTS_KEY } from '../../lib/reports-api';

export type ConsultantBillingParams = Partial<ConsultantBillingQuery>;

export const consultantBillingQuery = (params: ConsultantBillingParams) =>
  reportQuery<ConsultantBillingList, ConsultantBillingParams>('consultant-billing', params);

export const consultantOptionsQuery = () =>
  queryOptions({
    queryKey: [...REPORTS_KEY, 'consultant-billing', 'options'],
    queryFn: ({ signal }) =>
      api.get<ConsultantBillingOptions>('/api/reports/consultant-billing/options', { signal }),
  });

/** The workbook of every row of the filters, with a totals row. */
export function exportConsultantBilling(params: ConsultantBillingParams): Promise<void> {
  return exportReport('consultant-billing', params, `consultant-billing-${params.month ?? ''}.xlsx`);
}
