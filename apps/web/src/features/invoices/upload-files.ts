import {
  INVOICE_MAX_BYTES,
  INVOICE_MAX_FILES,
  invoiceFileKind,
  type InvoiceUploadResult,
} from '@kulu/shared';

/** A chosen file on its way: waiting, sending, accepted by the API or refused (with a message code). */
export type UploadStatus = 'pending' | 'uploading' | 'accepted' | 'refused';

export interface UploadItem {
  uid: string;
  file: File;
  status: UploadStatus;
  /** 0–100 while sending. */
  percent: number;
  invoiceId?: number;
  /** errors.<code> of a refusal (client side or API). */
  code?: string;
  /** The API's own text, shown when the code has no translation. */
  message?: string;
}

/**
 * The client-side checks before sending (spec §5), judged as the API judges: by size (at most
 * 20 MB) and by the first bytes (a PDF or a Finvoice e-invoice, never by name or type; `head` is
 * the file's first KiB, once read). Null when fine.
 */
export function checkFile(file: Pick<File, 'size'>, head?: Uint8Array): string | null {
  if (file.size > INVOICE_MAX_BYTES) return 'invoiceTooLarge';
  if (file.size === 0 || (head && !invoiceFileKind(head))) return 'invoiceNotPdf';
  return null;
}

/** The first KiB of a chosen file (what checkFile judges its content by). */
export const fileHead = async (file: Blob): Promise<Uint8Array> =>
  new Uint8Array(await file.slice(0, 1024).arrayBuffer());

/** Files that "Upload all" sends: those not sent yet and those refused for a reason that may pass. */
const RETRIABLE = new Set([
  'previousParseRunning',
  'parseBudgetExhausted',
  'internal',
  'network',
  'uploadFailed',
]);
export const isSendable = (item: UploadItem): boolean =>
  item.status === 'pending' || (item.status === 'refused' && RETRIABLE.has(item.code ?? ''));

/** The next batch of one request (the API takes at most INVOICE_MAX_FILES files per request). */
export const nextBatch = (items: UploadItem[]): UploadItem[] =>
  items.filter(isSendable).slice(0, INVOICE_MAX_FILES);

/**
 * Per-file progress of one multipart request from its bytes sent: the files go in order, so each
 * file's share is the part of `loaded` that falls into its slice of the total.
 */
export function filePercents(sizes: number[], loaded: number, total: number): number[] {
  const sum = sizes.reduce((a, b) => a + b, 0);
  if (sum <= 0 || total <= 0) return sizes.map(() => 0);
  const sent = (Math.min(loaded, total) / total) * sum;
  let start = 0;
  return sizes.map((size) => {
    const done = size <= 0 ? (sent >= start ? 1 : 0) : Math.min(1, Math.max(0, (sent - start) / size));
    start += size;
    return Math.round(done * 100);
  });
}

/** Puts the API's per-file answers on the batch (matched in order; a missing answer refuses). */
export function applyResults(
  items: UploadItem[],
  batch: string[],
  results: InvoiceUploadResult[],
): UploadItem[] {
  const byUid = new Map(batch.map((uid, i) => [uid, results[i]]));
  return items.map((item) => {
    if (!byUid.has(item.uid)) return item;
    const r = byUid.get(item.uid);
    if (!r) return { ...item, status: 'refused', percent: 0, code: 'internal', message: undefined };
    return r.status === 'accepted'
      ? {
          ...item,
          status: 'accepted',
          percent: 100,
          invoiceId: r.invoiceId,
          code: r.code,
          message: r.message,
        }
      : { ...item, status: 'refused', percent: 0, code: r.code ?? 'internal', message: r.message };
  });
}

/** Refuses every file of the batch with one reason (the whole request failed). */
export const refuseBatch = (items: UploadItem[], batch: string[], code: string, message?: string) =>
  items.map((item) =>
    batch.includes(item.uid) ? { ...item, status: 'refused' as const, percent: 0, code, message } : item,
  );

export interface UploadSummary {
  uploaded: number;
  failed: number;
  pending: number;
}

export function summarize(items: UploadItem[]): UploadSummary {
  return {
    uploaded: items.filter((i) => i.status === 'accepted').length,
    failed: items.filter((i) => i.status === 'refused').length,
    pending: items.filter((i) => i.status === 'pending' || i.status === 'uploading').length,
  };
}
