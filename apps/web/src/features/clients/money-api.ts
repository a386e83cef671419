import { queryOptions } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import type { ClientBilling, Contract, ContractStatus, BillingCycle } from '@kulu/shared';
import { helsinkiDay } from '@kulu/shared';
import { api } from '../../lib/api';
import { ApiRequestError } from '../../lib/api-client';
import { applyFieldErrors, errorText } from '../../lib/form-rules';
import { CLIENTS_KEY } from './api';

/**
 * The API calls of a client's contract, billing, payment and on-demand support sections
 * (issue 11). Every key starts with ['clients', <section>, clientId].
 */

export interface Saved {
  code: string;
  message: string;
}

// ---- contracts ---------------------------------------------------------------------------------

export const contractsKey = (clientId: number) => [...CLIENTS_KEY, 'contracts', clientId] as const;

/** The body of a contract's add / update (the API computes the costs). */
export interface ContractBody {
  term: string | null;
  startDate: string;
  endDate: string;
  billingPlanId: number | null;
  billingCycle: BillingCycle;
  numberOfPlans: number;
  units: number;
  status: ContractStatus;
  inactiveDate?: string | null;
}

export const saveContract = ({
  clientId,
  id,
  body,
}: {
  clientId: number;
  id?: number;
  body: ContractBody;
}) =>
  id == null
    ? api.post<Saved & { contract: Contract }>(`/api/clients/${clientId}/contracts`, body)
    : api.put<Saved & { contract: Contract }>(`/api/clients/${clientId}/contracts/${id}`, body);

export const terminateContract = ({
  clientId,
  id,
  terminationDate,
}: {
  clientId: number;
  id: number;
  terminationDate: string;
}) =>
  api.post<Saved & { contract: Contract }>(`/api/clients/${clientId}/contracts/${id}/terminate`, {
    terminationDate,
  });

/** A contract as the body of its update (e.g. to activate a draft as it is). */
export const contractBody = (c: Contract, status: ContractStatus): ContractBody => ({
  term: c.term,
  startDate: c.startDate,
  endDate: c.endDate,
  billingPlanId: c.billingPlanId,
  billingCycle: c.billingCycle,
  numberOfPlans: c.numberOfPlans,
  units: c.units,
  status,
  inactiveDate: c.inactiveDate,
});

// ---- billing -----------------------------------------------------------------------------------

export const billingKey = (clientId: number) => [...CLIENTS_KEY, 'billing', clientId] as const;

/** The client's billing plan, its fees and the plans to choose from. */
export const billingQuery = (clientId: number) =>
  queryOptions({
    queryKey: billingKey(clientId),
    queryFn: ({ signal }) => api.get<ClientBilling>(`/api/clients/${clientId}/billing`, { signal }),
  });

export const saveBilling = ({
  clientId,
  billingPlanId,
}: {
  clientId: number;
  billingPlanId: number | null;
}) => api.put<Saved & { billing: ClientBilling }>(`/api/clients/${clientId}/billing`, { billingPlanId });

// ---- payments and on-demand support --------------------------------------------------------------

/** The query key of a client's money section (`payments`, `support`). */
export const sectionKey = (clientId: number, section: string) => [...CLIENTS_KEY, section, clientId] as const;

// ---- errors on the fields -------------------------------------------------------------------------

/** The API's rule messages (spec §5) that belong to one field: shown on that field. */
const CODE_FIELD: Record<string, string> = {
  paymentAmountPositive: 'amount',
  paymentDateInFuture: 'paymentDate',
  supportHoursPositive: 'hours',
  supportDateNotInMonth: 'supportDate',
  contractStartBeforePrevious: 'startDate',
  contractTerminationDate: 'terminationDate',
  contractNoBillingPlan: 'billingPlanId',
};

/**
 * Puts an API error on the form: a rule's message on its field (in the user's language), other
 * per-field answers as "{name} is required / invalid!". False when nothing landed on a field
 * (the caller shows the message instead).
 */
export function showApiErrors(
  form: FormInstance,
  err: unknown,
  t: TFunction,
  labels: Record<string, string>,
): boolean {
  const ruleField = err instanceof ApiRequestError ? CODE_FIELD[err.code] : undefined;
  const onFields = applyFieldErrors(form, err, t, labels);
  if (ruleField && ruleField in labels) {
    form.setFields([{ name: ruleField, errors: [errorText(t, err)] }]);
    return true;
  }
  return onFields;
}

// ---- days in the forms ----------------------------------------------------------------------------

/** Days as the interface language writes them. */
export { DAY_FORMAT, DAY_PICKER_FORMAT } from '../../lib/format';

/** A `YYYY-MM-DD` value in the form, a dayjs in the date picker. */
export const dayProps = {
  getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v) : undefined }),
  normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null),
};

/** Today as the API sees it (the business day in Europe/Helsinki), for the forms day rules. */
export const apiToday = () => helsinkiDay(new Date());
