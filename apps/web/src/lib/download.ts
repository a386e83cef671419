import { apiUrl } from './api-base';
import { ApiRequestError } from './api-client';
import { getToken } from './session';

/** A filename from `Content-Disposition: attachment; filename="plans-2026-03-01.xlsx"`. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  if (!match) return fallback;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return match[1];
  }
}

/** A file from the API with the bearer token (a plain link would carry none). */
export async function fetchFile(url: string, fallbackName: string): Promise<{ blob: Blob; name: string }> {
  const token = getToken();
  const res = await fetch(apiUrl(url), {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: 'same-origin',
  });
  if (!res.ok) {
    let code = res.status === 403 ? 'forbidden' : res.status === 404 ? 'notFound' : 'internal';
    let message = res.statusText;
    try {
      const body = (await res.json()) as { code?: string; message?: string };
      if (body.code) code = body.code;
      if (body.message) message = body.message;
    } catch {
      // not JSON
    }
    throw new ApiRequestError(res.status, code, message);
  }
  return { blob: await res.blob(), name: fileNameFrom(res.headers.get('Content-Disposition'), fallbackName) };
}

/** Saves a blob under a name through a temporary link. */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** A file from the API, saved by the browser under the server's file name. */
export async function downloadFile(url: string, fallbackName: string): Promise<void> {
  const { blob, name } = await fetchFile(url, fallbackName);
  saveBlob(blob, name);
}
