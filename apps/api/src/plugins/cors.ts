import type { FastifyInstance } from 'fastify';

/** What a page of an allowed origin may send to the API besides the simple headers. */
const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, X-XSRF-TOKEN';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';

/**
 * The API answers the pages of the configured origins (CORS_ORIGINS): the web app built with
 * VITE_API_BASE and served from another origin. It authenticates by the bearer token, never by a
 * cookie (no `Access-Control-Allow-Credentials`), so a page of an allowed origin reaches what its
 * user's token reaches and nothing more; any other origin gets no CORS header and its browser keeps
 * the answer from it. A preflight (OPTIONS with Access-Control-Request-Method) is answered at once.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]) {
  if (!origins.length) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const origin = req.headers.origin;
    reply.header('vary', 'Origin');
    if (!origin || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    // The file name of a download (Excel exports) is read from its Content-Disposition.
    reply.header('access-control-expose-headers', 'Content-Disposition');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      reply.header('access-control-allow-methods', ALLOWED_METHODS);
      reply.header('access-control-allow-headers', ALLOWED_HEADERS);
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    }
  });
}
