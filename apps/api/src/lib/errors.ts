import type { MessageCode } from '@kulu/shared';

/** An error the API answers with its status and a message code of the shared catalogue. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: MessageCode,
    public readonly fields?: Record<string, string>,
  ) {
    super(code);
  }
}

export const notFound = () => new AppError(404, 'notFound');
export const forbidden = () => new AppError(403, 'forbidden');
