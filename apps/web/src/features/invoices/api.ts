import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  InvoiceDeleted,
  InvoiceDetail,
  InvoiceList,
  InvoiceListQuery,
  InvoiceSubscriptionList,
  InvoiceSubscriptionsQuery,
  Lang,
} from '@kulu/shared';
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

/** An invoice's header, totals and cost by category (category names in the user's language). */
export const invoiceDetailQuery = (id: number, lang: Lang) =>
  queryOptions({
    queryKey: [...INVOICES_KEY, 'detail', id, lang],
    queryFn: ({ signal }) => api.get<InvoiceDetail>(`/api/invoices/${id}`, { signal }),
  });

/** A page of the subscriptions on an invoice, each with its lines. */
export const invoiceSubscriptionsQuery = (id: number, params: Partial<InvoiceSubscriptionsQuery>) =>
  queryOptions({
    queryKey: [...INVOICES_KEY, 'subscriptions', id, params],
    queryFn: ({ signal }) =>
      api.get<InvoiceSubscriptionList>(`/api/invoices/${id}/subscriptions`, { query: { ...params }, signal }),
    placeholderData: keepPreviousData,
  });

/** Deletes an invoice (also a failed one); the lists, dashboards and results refresh from the answer. */
export const deleteInvoice = (id: number) => api.delete<InvoiceDeleted>(`/api/invoices/${id}`);
