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
export function reasonText(
  t: TFunction,
  code: string | null | undefined,
  message?: string | null,
  values: Record<string, string | null> = {},
): string {
  if (code === 'network') return t('invoices.upload.network');
  if (code) return t(`errors.${code}`, { ...values, defaultValue: message || t('errors.internal') });
  return message || t('errors.internal');
}

/** Why an invoice failed, in the reader's language, with the figures its message names. */
export const invoiceReasonText = (
  t: TFunction,
  invoice: {
    errorCode: string | null;
    errorMessage: string | null;
    buyerBusinessId: string | null;
    buyerName: string | null;
    invoiceNumber?: string | null;
  },
): string =>
  reasonText(t, invoice.errorCode, invoice.errorMessage, {
    businessId: invoice.buyerBusinessId,
    buyerName: invoice.buyerName,
    invoiceNumber: invoice.invoiceNumber ?? null,
  });

/** A decimal string from the API ("1234.50") as a number, or null. */
export const amountOf = (value: string | null): number | null => {
  if (value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
