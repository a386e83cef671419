import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit cookie: every response carries an `XSRF-TOKEN` cookie (readable by the page),
 * and every non-GET API call must echo it in `X-XSRF-TOKEN`. Compared in constant time.
 */
export function registerCsrf(app: FastifyInstance, opts: { secure: boolean }) {
  app.addHook('onRequest', async (req, reply) => {
    let token = req.cookies[XSRF_COOKIE];
    if (!token || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) {
      token = crypto.randomBytes(24).toString('base64url');
      reply.setCookie(XSRF_COOKIE, token, {
        path: '/',
        sameSite: 'lax',
        secure: opts.secure,
        httpOnly: false,
      });
      if (!SAFE.has(req.method) && req.url.startsWith('/api/')) return sendError(req, reply, 403, 'csrf');
      return;
    }
    if (SAFE.has(req.method) || !req.url.startsWith('/api/')) return;
    const header = req.headers[XSRF_HEADER];
    const sent = Buffer.from(typeof header === 'string' ? header : '');
    const expected = Buffer.from(token);
    if (sent.length !== expected.length || !crypto.timingSafeEqual(sent, expected)) {
      return sendError(req, reply, 403, 'csrf');
    }
  });
}
