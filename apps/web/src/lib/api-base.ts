/**
 * Where the web app finds the API: by default its own origin (`/api/...` on the server that serves
 * the page, as `npm start` does). A build for an API served from another origin sets
 * `VITE_API_BASE=https://api.example.fi` (no trailing slash; a path prefix is kept), and that API
 * lets the app's origin call it (its CORS_ORIGINS). Calls then go there with the bearer token and
 * no cookies.
 */
export function apiBaseOf(value: string | undefined): string {
  const base = (value ?? '').trim().replace(/\/+$/, '');
  if (base && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(base))
    throw new Error(`VITE_API_BASE must be an http:// or https:// address, not "${base}"`);
  return base;
}

export const API_BASE = apiBaseOf(import.meta.env.VITE_API_BASE as string | undefined);

/** The address of an API path (`/api/...`) under `base`; other addresses are left as they are. */
export const apiUrl = (path: string, base: string = API_BASE): string =>
  base && path.startsWith('/api/') ? `${base}${path}` : path;
