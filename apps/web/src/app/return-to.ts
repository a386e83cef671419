import { PUBLIC_ROUTES } from '@kulu/shared';

/**
 * The page a signed-out visitor asked for (a bookmark, a link in a mail), carried in the login
 * page's location state so that signing in lands there instead of on the home page.
 */
export interface ReturnToState {
  from?: string;
}

const PUBLIC_PATHS: readonly string[] = Object.values(PUBLIC_ROUTES);

/** The state for the login page that returns to `path` (nothing for `/` or a public page). */
export function returnTo(path: string): ReturnToState | undefined {
  const pathname = path.split('?')[0] ?? '';
  return path.startsWith('/') && pathname !== '/' && !PUBLIC_PATHS.includes(pathname)
    ? { from: path }
    : undefined;
}

/** Where signing in goes on from the login page's location state: the asked page, else home. */
export function returnPath(state: unknown): string {
  const from = (state as ReturnToState | null)?.from;
  return typeof from === 'string' && returnTo(from) ? from : '/';
}
