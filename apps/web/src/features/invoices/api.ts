import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceDetail, InvoiceList, InvoiceListQuery } from '@kulu/shared';
import { api } from '../../lib/api';

export const INVOICES_KEY = ['invoices'] as const;
/** How often lists and files are refreshed while a parse is running. */
export const POLL_MS = 2000;

export type InvoiceListParams = Pick<InvoiceListQuery, 'page' | 'pageSize' | 'sort' | 'order'> & {
  clientId?: number;
};

export const invoiceListQuery = (params: InvoiceListParams) =>
  queryOptions({
    queryKey: [...INVOICES_KEY, 'list', params],
    queryFn: ({ signal }) => api.get<InvoiceList>('/api/invoices', { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
    // The parse runs in the background: refresh while any invoice on the page is in progress.
    refetchInterval: (q) =>
      q.state.data?.items.some((i) => i.uploadState === 'in_progress') ? POLL_MS : false,
  });

/** One uploaded file's invoice, polled until its parse is over. */
export const invoiceQuery = (id: number) =>
  queryOptions({
    queryKey: [...INVOICES_KEY, 'one', id],
    queryFn: ({ signal }) => api.get<InvoiceDetail>(`/api/invoices/${id}`, { signal }),
    refetchInterval: (q) => (!q.state.data || q.state.data.uploadState === 'in_progress' ? POLL_MS : false),
  });
