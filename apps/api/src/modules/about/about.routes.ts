import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aboutSchema, KULU_LICENCE } from '@kulu/shared';
import { findSourceRoot, sourceArchive } from './source-archive.js';

/** Where the server's own source archive is served; SOURCE_URL's default. */
export const OWN_SOURCE_PATH = '/api/source';

/**
 * AGPL §13: Kulu offers its source to everyone who uses it over the network. `/api/about` tells
 * the app (and any script) the licence and where the source is; `/api/source`, the app's link,
 * serves the running checkout's own source as a .tar.gz, or redirects to SOURCE_URL when it is set
 * (a public repository), so the web app links one fixed path and needs no call to learn it.
 */
export async function aboutRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const sourceUrl = app.deps.config.SOURCE_URL ?? OWN_SOURCE_PATH;
  let archive: Buffer | null = null;

  r.get(
    '/api/about',
    {
      config: { public: true },
      schema: { tags: ['about'], response: { 200: aboutSchema } },
    },
    async () => ({ product: 'Kulu', licence: KULU_LICENCE, sourceUrl }),
  );

  r.get(
    OWN_SOURCE_PATH,
    {
      config: { public: true, rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: {
        tags: ['about'],
        description:
          "The running server's source code as a .tar.gz (AGPL-3.0-or-later, §13), or a redirect to SOURCE_URL.",
        response: { 200: z.any(), 302: z.null(), 404: z.object({ message: z.string() }) },
      },
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
