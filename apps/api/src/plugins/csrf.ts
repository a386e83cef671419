import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a request needs the double-submit check. The API authenticates by a bearer header, which
 * a browser never attaches on its own (a cross-site page can't set it without a CORS preflight we
 * don't grant), so a request that carries one can't be forged by another site. Nor can a request
 * with no cookies at all ride on a victim's browser session. What's left, a cookie-carrying
 * browser request without a bearer, must echo the cookie in the header.
 */
function needsCheck(req: FastifyRequest): boolean {
  if (SAFE.has(req.method) || !req.url.startsWith('/api/')) return false;
  return Boolean(req.headers.cookie);
}

const hasBearer = (req: FastifyRequest) => /^bearer\s+\S/i.test(req.headers.authorization ?? '');

/**
 * Double-submit cookie: every response to a request without a bearer token (the page, the sign-in
 * calls) carries an `XSRF-TOKEN` cookie (readable by the page) when it has none yet, and
 * every non-GET API call of a cookie-carrying browser without a bearer token must echo it in
 * `X-XSRF-TOKEN` (compared in constant time). Scripts and integrations (a bearer token, or no
 * cookies at all, e.g. `POST /api/Token`) need none; the web app sends the header anyway.
 */
export function registerCsrf(app: FastifyInstance, opts: { secure: boolean }) {
  app.addHook('onRequest', async (req, reply) => {
    // A bearer request needs no check and no cookie: the web app has its cookie from the page and
    // the sign-in calls, and a script has no use for one (issue 13: a new random cookie on every
    // answer of an integration's calls).
    if (hasBearer(req)) return;
    let token = req.cookies[XSRF_COOKIE];
    const valid = Boolean(token && /^[A-Za-z0-9_-]{20,100}$/.test(token));
    if (!valid) {
      token = crypto.randomBytes(24).toString('base64url');
      reply.setCookie(XSRF_COOKIE, token, {
        path: '/',
        sameSite: 'lax',
        secure: opts.secure,
        httpOnly: false,
      });
    }
    if (!needsCheck(req)) return;
    if (!valid) return sendError(req, reply, 403, 'csrf');
    const header = req.headers[XSRF_HEADER];
    const sent = Buffer.from(typeof header === 'string' ? header : '');
    const expected = Buffer.from(token as string);
    if (sent.length !== expected.length || !crypto.timingSafeEqual(sent, expected)) {
      return sendError(req, reply, 403, 'csrf');
    }
  });
}
