import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { message, type MessageCode } from '@kulu/shared';
import { AppError } from '../lib/errors.js';

/** Preferred language: the user's own, else Accept-Language. */
export function requestLanguage(req: FastifyRequest): 'en' | 'fi' {
  if (req.user) return req.user.languageId === 2 ? 'fi' : 'en';
  const header = String(req.headers['accept-language'] ?? '');
  return /^fi\b/i.test(header) ? 'fi' : 'en';
}

export function sendError(
  req: FastifyRequest,
  reply: FastifyReply,
  statusCode: number,
  code: MessageCode,
  fields?: Record<string, string>,
) {
  return reply
    .code(statusCode)
    .send({ statusCode, code, message: message(code, requestLanguage(req)), fields });
}

/**
 * One error shape for the whole API: `{statusCode, code, message, fields?}`, message in the
 * caller's language. Validation issues become per-field codes (required, invalid, mismatch).
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) return sendError(req, reply, err.statusCode, err.code, err.fields);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        if (fields[path]) continue;
        fields[path] =
          v.message === 'mismatch'
            ? 'mismatch'
            : v.keyword === 'invalid_type' && /received undefined/.test(v.message ?? '')
              ? 'required'
              : 'invalid';
      }
      return sendError(req, reply, 400, 'validation', fields);
    }
    if (err.statusCode === 429) return sendError(req, reply, 429, 'tooManyRequests');
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(req, reply, err.statusCode, err.statusCode === 404 ? 'notFound' : 'validation');
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'internal');
  });
  app.setNotFoundHandler((req, reply) => sendError(req, reply, 404, 'notFound'));
}
