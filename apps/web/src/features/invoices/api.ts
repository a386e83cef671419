import { queryOptions } from '@tanstack/react-query';
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
import { ApiRequestError } from '../../lib/api-client';
import { shownQuery } from '../../lib/shown-query';

export const INVOICES_KEY = ['invoices'] as const;
/** How often lists and files are refreshed while a parse is running. */
export const POLL_MS = 2000;

export type InvoiceListParams = Pick<InvoiceListQuery, 'page' | 'pageSize' | 'sort' | 'order'> & {
  clientId?: number;
};

export const invoiceListQuery = (params: InvoiceListParams) =>
  shownQuery<InvoiceList>(
    [...INVOICES_KEY, 'list', params],
    '/api/invoices',
    { ...params },
    {
      // The parse runs in the background: refresh while any invoice on the page is in progress.
      refetchInterval: (q) =>
        q.state.data?.items.some((i) => i.uploadState === 'in_progress') ? POLL_MS : false,
    },
  );

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
  shownQuery<InvoiceSubscriptionList>(
    [...INVOICES_KEY, 'subscriptions', id, params],
    `/api/invoices/${id}/subscriptions`,
    { ...params },
  );

/** Deletes an invoice (also a failed one); the lists, dashboards and results refresh from the answer. */
export const deleteInvoice = (id: number) => api.delete<InvoiceDeleted>(`/api/invoices/${id}`);

/** A company admin confirms that an invoice refused for its buyer's name is the company's. */
export const confirmInvoiceBuyer = (id: number) =>
  api.post<{ code: string; message: string }>(`/api/invoices/${id}/confirm-buyer`);

/**
 * The way forward of an invoice refused for a missing operator contract (issue 38, item 7): reads
 * the invoice again, adding the contract first through the operator contracts' own PUT (its details
 * can be filled in later) only while there is none (a contract added meanwhile is never overwritten).
 */
export async function addContractAndReadAgain(invoice: { id: number; clientId: number; operatorId: number }) {
  const readAgain = () =>
    api.post<{ code: string; message: string }>(`/api/invoices/${invoice.id}/read-again`);
  try {
    return await readAgain();
  } catch (e) {
    if (!(e instanceof ApiRequestError) || e.code !== 'invoiceOperatorNoContract') throw e;
  }
  await api.put(`/api/clients/${invoice.clientId}/operator-contracts/${invoice.operatorId}`, {
    uploadInvoiceReminder: false,
  });
  return readAgain();
}
