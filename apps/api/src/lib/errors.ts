import type { MessageCode } from '@kulu/shared';

/** An error the API answers with its status and a message code of the shared catalogue. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: MessageCode,
    public readonly fields?: Record<string, string>,
    /** `retryAfterSeconds`: answered as Retry-After (a 429 or 503 the caller may try again). */
    public readonly opts: { retryAfterSeconds?: number } = {},
  ) {
    super(code);
  }
}

export const notFound = () => new AppError(404, 'notFound');
export const forbidden = () => new AppError(403, 'forbidden');

/**
 * A technical detail fit to show a user: file-system paths and file URLs (where the server is
 * installed, a temporary directory) replaced by their last part, e.g. `Cannot find module
 * '/srv/kulu/apps/api/dist/x.mjs'` → `Cannot find module 'x.mjs'`.
 */
export function withoutPaths(detail: string): string {
  return detail
    .replace(/\bfile:\/\/\/?(?:[^\s'"`()<>]*\/)?([^\s'"`()<>/]*)/gi, '$1')
    .replace(/(?<![\w.:/~-])(?:\/|[A-Za-z]:\\)(?:[^\s'"`()<>/\\]+[/\\])+([^\s'"`()<>/\\]*)/g, '$1');
}
