import { queryOptions } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import type {
  OperatorContractList,
  OperatorContractSaved,
  OperatorContractUpdate,
  OperatorDocumentList,
  OperatorDocumentSaved,
} from '@kulu/shared';
import { api } from './api';
import { downloadFile } from './download';

/**
 * The API calls of a client's operator contract details and their documents (issue 11), used by
 * Client Management and by the company's My Profile. Keys start with
 * ['clients', 'operatorContracts', clientId].
 */

/** Under the clients feature's key root (`CLIENTS_KEY`), so that its invalidations reach these too. */
export const operatorContractsKey = (clientId: number) => ['clients', 'operatorContracts', clientId] as const;

const base = (clientId: number) => `/api/clients/${clientId}/operator-contracts`;

export const operatorContractsQuery = (clientId: number) =>
  queryOptions({
    queryKey: operatorContractsKey(clientId),
    queryFn: ({ signal }) => api.get<OperatorContractList>(base(clientId), { signal }),
  });

export const saveOperatorContract = ({
  clientId,
  operatorId,
  body,
}: {
  clientId: number;
  operatorId: number;
  body: Partial<OperatorContractUpdate>;
}) => api.put<OperatorContractSaved>(`${base(clientId)}/${operatorId}`, body);

export const documentsKey = (clientId: number, operatorId: number) =>
  [...operatorContractsKey(clientId), operatorId, 'documents'] as const;

export const documentsQuery = (clientId: number, operatorId: number) =>
  queryOptions({
    queryKey: documentsKey(clientId, operatorId),
    queryFn: ({ signal }) =>
      api.get<OperatorDocumentList>(`${base(clientId)}/${operatorId}/documents`, { signal }),
  });

export function uploadDocument({
  clientId,
  operatorId,
  name,
  file,
}: {
  clientId: number;
  operatorId: number;
  name: string;
  file: File;
}) {
  const data = new FormData();
  data.append('name', name);
  data.append('file', file);
  return api.request<OperatorDocumentSaved>(`${base(clientId)}/${operatorId}/documents`, {
    method: 'POST',
    formData: data,
  });
}

export const deleteDocument = ({
  clientId,
  operatorId,
  id,
}: {
  clientId: number;
  operatorId: number;
  id: number;
}) => api.delete<{ code: string; message: string }>(`${base(clientId)}/${operatorId}/documents/${id}`);

export const downloadDocument = (clientId: number, operatorId: number, id: number, fallback: string) =>
  downloadFile(`${base(clientId)}/${operatorId}/documents/${id}`, fallback);

/** A `YYYY-MM-DD` value in the form, a dayjs in the date picker. */
export const dayProps = {
  getValueProps: (v: string | null | undefined) => ({ value: v ? dayjs(v) : undefined }),
  normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : null),
};

export { DAY_FORMAT, DAY_PICKER_FORMAT } from './format';
