import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PortfolioList, PortfolioQuery } from '@kulu/shared';
import { api } from '../../lib/api';
import { downloadFile } from '../../lib/download';
import { queryString } from '../../lib/reports-api';

export type PortfolioParams = Partial<Omit<PortfolioQuery, 'missingInvoices'>> & {
  missingInvoices?: boolean;
};

export const portfolioQuery = (params: PortfolioParams) =>
  queryOptions({
    queryKey: ['portfolio', params],
    queryFn: ({ signal }) =>
      api.get<PortfolioList>(`/api/portfolio?${queryString({ ...params })}`, { signal }),
    placeholderData: keepPreviousData,
  });

/** The workbook of every row of the filters, in the list's order. */
export function exportPortfolio(params: PortfolioParams, month: string): Promise<void> {
  const { page: _p, pageSize: _s, ...filters } = params;
  const qs = queryString({ ...filters });
  return downloadFile(`/api/portfolio/export${qs ? `?${qs}` : ''}`, `portfolio-${month}.xlsx`);
}
