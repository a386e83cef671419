/**
 * The one way the web app talks to the API (spec §7): bearer token on every call, the
 * XSRF header on non-GET calls to relative addresses, 401 → session expired, JSON errors
 * `{statusCode, code, message, fields?}` turned into `ApiRequestError`, and a count of the
 * requests in flight for the global loading bar.
 */
import { apiUrl } from './api-base';

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body. */
  json?: unknown;
  /** application/x-www-form-urlencoded body (POST /api/Token). */
  form?: Record<string, string | number | undefined>;
  /** multipart body (uploads). */
  formData?: FormData;
  query?: Record<string, string | number | undefined>;
  /** Send no bearer token even when one exists (login calls). */
  anonymous?: boolean;
  /**
   * A 401 is this call's own answer, not the end of the session (signing out a session the server
   * has already ended): the session-expired handler is not called.
   */
  ownUnauthorized?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  getToken: () => string | null;
  /** The raw `document.cookie` string. */
  getCookies: () => string;
  /** Called once per burst of 401 answers to calls that carried a token. */
  onSessionExpired: () => void;
  /** The API's origin when it is not the page's (VITE_API_BASE, lib/api-base.ts); '' or none: the page's. */
  apiBase?: string;
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'X-XSRF-TOKEN';

export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Relative to the page (same origin): `/api/x`, `api/x`, not `https://…` or `//host/…`. */
export const isRelativeUrl = (url: string): boolean => !/^([a-z][a-z\d+.-]*:)?\/\//i.test(url);

export type InFlightListener = (count: number) => void;

export function createApiClient(deps: ApiClientDeps) {
  let inFlight = 0;
  let expiredNotified = false;
  const listeners = new Set<InFlightListener>();
  const setInFlight = (n: number) => {
    inFlight = n;
    listeners.forEach((l) => l(n));
  };

  async function request<T>(url: string, opts: RequestOptions = {}): Promise<T> {
    const method = opts.method ?? 'GET';
    const headers = new Headers({ Accept: 'application/json' });
    const token = opts.anonymous ? null : deps.getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const address = apiUrl(url, deps.apiBase ?? '');
    if (method !== 'GET' && isRelativeUrl(address)) {
      const xsrf = readCookie(deps.getCookies(), XSRF_COOKIE);
      if (xsrf) headers.set(XSRF_HEADER, xsrf);
    }
    let body: BodyInit | undefined;
    if (opts.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(opts.json);
    } else if (opts.form) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) if (v !== undefined) params.set(k, String(v));
      body = params.toString();
    } else if (opts.formData) body = opts.formData;

    let target = address;
    if (opts.query) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.query)) if (v !== undefined) params.set(k, String(v));
      const qs = params.toString();
      if (qs) target += (address.includes('?') ? '&' : '?') + qs;
    }

    setInFlight(inFlight + 1);
    try {
      const res = await deps.fetch(target, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: opts.signal,
      });
      if (res.status === 401 && token && !opts.ownUnauthorized) {
        if (!expiredNotified) {
          expiredNotified = true;
          deps.onSessionExpired();
        }
        throw new ApiRequestError(401, 'sessionExpired', 'Your session has expired, please login again');
      }
      if (res.ok) expiredNotified = false;
      return (await parseBody<T>(res)) as T;
    } finally {
      setInFlight(inFlight - 1);
    }
  }

  return {
    request,
    get: <T>(url: string, opts?: Omit<RequestOptions, 'method'>) =>
      request<T>(url, { ...opts, method: 'GET' }),
    post: <T>(url: string, json?: unknown, opts?: Omit<RequestOptions, 'method' | 'json'>) =>
      request<T>(url, { ...opts, method: 'POST', json }),
    put: <T>(url: string, json?: unknown, opts?: Omit<RequestOptions, 'method' | 'json'>) =>
      request<T>(url, { ...opts, method: 'PUT', json }),
    delete: <T>(url: string, opts?: Omit<RequestOptions, 'method'>) =>
      request<T>(url, { ...opts, method: 'DELETE' }),
    inFlight: () => inFlight,
    onInFlightChange(listener: InFlightListener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

async function parseBody<T>(res: Response): Promise<T | string | undefined> {
  const type = res.headers.get('Content-Type') ?? '';
  const text = await res.text();
  const data: unknown = type.includes('json') && text ? safeJson(text) : text;
  if (res.ok) return (res.status === 204 ? undefined : data) as T | string | undefined;
  if (data && typeof data === 'object' && 'code' in data) {
    const e = data as { code: unknown; message?: unknown; fields?: Record<string, string> };
    throw new ApiRequestError(
      res.status,
      String(e.code),
      typeof e.message === 'string' ? e.message : res.statusText,
      e.fields,
    );
  }
  throw new ApiRequestError(
    res.status,
    statusCode(res.status),
    typeof data === 'string' && data ? data : res.statusText,
  );
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const statusCode = (status: number): string =>
  status === 403
    ? 'forbidden'
    : status === 404
      ? 'notFound'
      : status === 429
        ? 'tooManyRequests'
        : 'internal';
