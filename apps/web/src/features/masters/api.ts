import { api } from '../../lib/api';
import { masterUrlOf } from '../../lib/master-url';
import type { Row } from '../../components/resource/api';

export type { Row } from '../../components/resource/api';

/** Every masters query starts with this key: a write invalidates lists and choices alike. */
export const MASTERS_KEY = ['masters'] as const;

// ---- cost elements ----------------------------------------------------------------------------

export interface BulkResult {
  updated: number;
  code: string;
  message: string;
}
export const approveCostElement = (id: number) => api.post<Row>(masterUrlOf('costElements', id, 'approve'));
export const categorizeCostElement = (id: number, costCategoryId: number) =>
  api.post<Row>(masterUrlOf('costElements', id, 'category'), { costCategoryId });
export const approveCostElements = (ids: number[]) =>
  api.post<BulkResult>(masterUrlOf('costElements', 'approve'), { ids });
export const categorizeCostElements = (ids: number[], costCategoryId: number) =>
  api.post<BulkResult>(masterUrlOf('costElements', 'categorize'), { ids, costCategoryId });

// ---- downloads ----------------------------------------------------------------------------------

export { downloadFile } from '../../lib/download';

export const helpFileUrl = (id: number) => masterUrlOf('help', id, 'file');
