import type { InvoiceUploadResult } from '@kulu/shared';
import { readCookie, XSRF_COOKIE, XSRF_HEADER } from '../../lib/api-client';
import { getToken } from '../../lib/session';
import { API_BASE, apiUrl } from '../../lib/api-base';

export interface UploadAnswer {
  /** Per-file answers, when the API gave them (also with a refusal status). */
  results: InvoiceUploadResult[] | null;
  /** The error code of a request that failed as a whole. */
  code?: string;
  message?: string;
}

/**
 * POST /api/invoices as multipart through XMLHttpRequest (fetch reports no upload progress), with
 * the same bearer and XSRF headers as the API client.
 */
export function uploadInvoiceFiles(
  files: File[],
  fields: Record<string, string | number | undefined>,
  onProgress: (loaded: number, total: number) => void,
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const body = new FormData();
    for (const f of files) body.append('files', f, f.name);
    // The target goes in the query: the API checks it (and the client's running parse, quota and
    // budget) before it reads the files.
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) query.set(k, String(v));
    const xhr = new XMLHttpRequest();
    const qs = query.toString();
    xhr.open('POST', apiUrl(qs ? `/api/invoices?${qs}` : '/api/invoices'));
    xhr.setRequestHeader('Accept', 'application/json');
    const token = getToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    const xsrf = readCookie(document.cookie, XSRF_COOKIE);
    if (xsrf) xhr.setRequestHeader(XSRF_HEADER, xsrf);
    // Another origin's API (VITE_API_BASE) takes the bearer token alone, no cookies.
    xhr.withCredentials = !API_BASE;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    };
    xhr.onerror = () => resolve({ results: null, code: 'network' });
    xhr.onload = () => {
      let data: { results?: InvoiceUploadResult[]; code?: string; message?: string } = {};
      try {
        data = JSON.parse(xhr.responseText) as typeof data;
      } catch {
        // not JSON
      }
      if (Array.isArray(data.results) && data.results.length) {
        resolve({ results: data.results, code: data.code, message: data.message });
        return;
      }
      const code =
        data.code ??
        (xhr.status === 401
          ? 'sessionExpired'
          : xhr.status === 413
            ? 'invoiceTooLarge'
            : xhr.status === 429
              ? 'uploadsBusy'
              : 'internal');
      resolve({ results: null, code, message: data.message });
    };
    xhr.send(body);
  });
}
