import { queryOptions } from '@tanstack/react-query';
import type {
  ImportPreview,
  ImportResult,
  PlanChoice,
  PlanDetailSaved,
  PlanDetailUpdate,
} from '@kulu/shared';
import { api } from '../../lib/api';

export const INVOICE_USERS_KEY = ['invoice-users'] as const;

const fileForm = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};

/** The import's preview: counts and per-row errors; writes nothing. */
export const previewImport = ({ file, clientId }: { file: File; clientId?: number }) =>
  api.post<ImportPreview>('/api/invoice-users/import/preview', undefined, {
    formData: fileForm(file),
    query: { clientId },
  });

/** The import of the same file: its valid rows in one transaction. */
export const runImport = ({ file, clientId }: { file: File; clientId?: number }) =>
  api.post<ImportResult>('/api/invoice-users/import', undefined, {
    formData: fileForm(file),
    query: { clientId },
  });

export const PLAN_DETAILS_KEY = ['plan-details'] as const;

/** Edit Plan Details: the plans of the subscription's operator it may be put on. */
export const planChoicesQuery = (subscriptionId: number) =>
  queryOptions({
    queryKey: [...PLAN_DETAILS_KEY, 'plans', subscriptionId],
    queryFn: ({ signal }) => api.get<PlanChoice[]>(`/api/plan-details/${subscriptionId}/plans`, { signal }),
  });

/** Puts the subscription on the plan and sets the client's contract price; queues re-optimization. */
export const savePlanDetail = ({ id, body }: { id: number; body: PlanDetailUpdate }) =>
  api.put<PlanDetailSaved>(`/api/plan-details/${id}`, body);
