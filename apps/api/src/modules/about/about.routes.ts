import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { aboutSchema, KULU_LICENCE } from '@kulu/shared';
import { findSourceRoot, sourceArchive } from './source-archive.js';
import { declareRoutes } from '../../lib/routes.js';

/** Where the server's own source archive is served; SOURCE_URL's default. */
export const OWN_SOURCE_PATH = '/api/source';

/**
 * AGPL §13: Kulu offers its source to everyone who uses it over the network. `/api/about` tells
 * the app (and any script) the licence and where the source is; `/api/source`, the app's link,
 * serves the running checkout's own source as a .tar.gz, or redirects to SOURCE_URL when it is set
 * (a public repository), so the web app links one fixed path and needs no call to learn it.
 */
export async function aboutRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, ['about']);
  const sourceUrl = app.deps.config.SOURCE_URL ?? OWN_SOURCE_PATH;
  let archive: Buffer | null = null;

  route.get('/api/about', { public: true }, { response: { 200: aboutSchema } }, async () => ({
    product: 'Kulu',
    licence: KULU_LICENCE,
    sourceUrl,
  }));

  route.get(
    OWN_SOURCE_PATH,
    { public: true, rateLimit: { max: 10, timeWindow: 60_000 } },
    {
      description:
        "The running server's source code as a .tar.gz (AGPL-3.0-or-later, §13), or a redirect to SOURCE_URL.",
      response: { 200: z.any(), 302: z.null(), 404: z.object({ message: z.string() }) },
    },
    async (_req, reply) => {
      if (sourceUrl !== OWN_SOURCE_PATH) return reply.redirect(sourceUrl);
      const root = findSourceRoot();
      if (!root) return reply.code(404).send({ message: 'The source tree is not beside this server.' });
      archive ??= sourceArchive(root);
      return reply
        .type('application/gzip')
        .header('content-disposition', 'attachment; filename="kulu-source.tar.gz"')
        .send(archive);
    },
  );
}
