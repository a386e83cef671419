import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
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
  params: Record<string, string> = {},
) {
  const text = message(code, requestLanguage(req)).replace(/\{(\w+)\}/g, (m, k: string) => params[k] ?? m);
  return reply.code(statusCode).send({ statusCode, code, message: text, fields });
}

/** One validation issue, from a zod error or from the route's schema validation. */
interface Issue {
  path: string;
  code: string;
  message?: string;
  values?: unknown;
  /** The fields a strict schema does not know (`unrecognized_keys`). */
  keys?: string[];
}

/**
 * Issues carrying one of these message codes (schemas/primitives.ts) name what was wrong in the
 * answer's message; other issues answer the generic `validation`.
 */
const SPECIFIC: readonly MessageCode[] = [
  'controlCharacters',
  'emptyBody',
  'invalidId',
  'invalidPaging',
  'invalidSort',
  'invalidMonth',
  'invalidPeriod',
  'paymentAmountPositive',
  'supportHoursPositive',
  'alertsAcknowledgeWhich',
];

function sendValidation(req: FastifyRequest, reply: FastifyReply, issues: Issue[]) {
  const fields: Record<string, string> = {};
  let code: MessageCode = 'validation';
  let allowed: string | undefined;
  const unknown = issues.flatMap((v) => (v.code === 'unrecognized_keys' ? (v.keys ?? []) : []));
  if (unknown.length) {
    // A field the route does not know: named, so that a script's author sees the typo.
    for (const k of unknown) fields[k] = 'unknown';
    return sendError(req, reply, 400, 'unknownField', fields, { fields: unknown.join(', ') });
  }
  for (const v of issues) {
    if (code === 'validation' && SPECIFIC.includes(v.message as MessageCode)) {
      code = v.message as MessageCode;
      if (Array.isArray(v.values)) allowed = v.values.join(', ');
    }
    const path = v.path || '_';
    if (fields[path]) continue;
    fields[path] =
      v.message === 'mismatch'
        ? 'mismatch'
        : v.code === 'invalid_type' && /received undefined/.test(v.message ?? '')
          ? 'required'
          : 'invalid';
  }
  return sendError(req, reply, 400, code, fields, allowed ? { allowed } : {});
}

/**
 * PostgreSQL's class 22 (data exception: invalid text representation, numeric value out of
 * range, NUL in text, invalid byte sequence, …) mean the request carried a
 * value the database refuses: a 400, never a 500. Drivers nest the code under `cause`.
 */
export function isDataException(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * A browser asking for a page of the app by its path (`/company/dashboard`, typed or from a link
 * without the `#`): a GET or HEAD outside /api that accepts HTML.
 */
export function isAppNavigation(req: FastifyRequest): boolean {
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    !/^\/api(?:[/?]|$)/.test(req.url) &&
    /\btext\/html\b/.test(String(req.headers.accept ?? ''))
  );
}

/**
 * One error shape for the whole API: `{statusCode, code, message, fields?}`, message in the
 * caller's language. Validation issues become per-field codes (required, invalid, mismatch).
 * With `webApp` (the built web app is served), a browser's request for a path the server does not
 * know goes to the app's hash route of that path, where the app's router answers it; /api stays JSON.
 */
export function registerErrorHandling(app: FastifyInstance, opts: { webApp?: boolean } = {}) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.opts.retryAfterSeconds) reply.header('retry-after', String(err.opts.retryAfterSeconds));
      return sendError(req, reply, err.statusCode, err.code, err.fields);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      return sendValidation(
        req,
        reply,
        err.validation.map((v) => ({
          path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
          code: v.keyword,
          message: v.message,
          values: (v.params as { values?: unknown }).values,
          keys: (v.params as { keys?: string[] }).keys,
        })),
      );
    }
    // A schema parsed inside a handler or service.
    if (err instanceof ZodError) {
      return sendValidation(
        req,
        reply,
        err.issues.map((i) => ({
          path: i.path.join('.'),
          code: i.code,
          message: i.message,
          values: (i as { values?: unknown }).values,
          keys: (i as { keys?: string[] }).keys,
        })),
      );
    }
    if (isDataException(err)) {
      req.log.warn({ err }, 'value refused by the database');
      return sendError(req, reply, 400, 'invalidValue');
    }
    if (err.statusCode === 429) return sendError(req, reply, 429, 'tooManyRequests');
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(req, reply, err.statusCode, err.statusCode === 404 ? 'notFound' : 'validation');
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(req, reply, 500, 'internal');
  });
  app.setNotFoundHandler((req, reply) =>
    opts.webApp && isAppNavigation(req)
      ? reply.redirect(`/#${req.url}`, 302)
      : sendError(req, reply, 404, 'notFound'),
  );
}
