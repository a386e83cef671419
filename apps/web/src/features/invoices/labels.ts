import type { TFunction } from 'i18next';
import type { ParsingStatus, UploadState } from '@kulu/shared';

export const UPLOAD_STATE_COLOR: Record<UploadState, string> = {
  in_progress: 'processing',
  uploaded: 'success',
  failed: 'error',
};
export const PARSING_STATUS_COLOR: Record<ParsingStatus, string> = {
  pending: 'default',
  completed: 'success',
};

/** The text of a refusal or failure: errors.<code>, else the API's own text, else a generic one. */
export function reasonText(t: TFunction, code: string | null | undefined, message?: string | null): string {
  if (code === 'network') return t('invoices.upload.network');
  if (code) return t(`errors.${code}`, { defaultValue: message || t('errors.internal') });
  return message || t('errors.internal');
}

/** A decimal string from the API ("1234.50") as a number, or null. */
export const amountOf = (value: string | null): number | null => {
  if (value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
