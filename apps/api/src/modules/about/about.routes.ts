import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { aboutSchema, KULU_LICENCE } from '@kulu/shared';
import fs from 'node:fs';
import { findSourceRoot, NoSourceListError, SourceArchiveCache } from './source-archive.js';
import { AppError } from '../../lib/errors.js';
import { declareRoutes } from '../../lib/routes.js';

/** Where the server's own source archive is served; SOURCE_URL's default. */
export const OWN_SOURCE_PATH = '/api/source';

/**
 * AGPL §13: Kulu offers its source to everyone who uses it over the network. `/api/about` tells
 * the app (and any script) the licence and where the source is; `/api/source`, the app's link,
 * serves the running checkout's own source as a .tar.gz, or redirects to SOURCE_URL when it is set
 * (a public repository), so the web app links one fixed path and needs no call to learn it. The
 * archive holds the files the project tracks only (source-archive.ts), never DATA_DIR; it is built
 * once per process, off the event loop, and streamed from a temporary file.
 */
export async function aboutRoutes(
  app: FastifyInstance,
  /** `sourceRoot`: the checkout to offer (tests); by default the one this server runs from. */
  opts: { sourceRoot?: string | null } = {},
) {
  const route = declareRoutes(app, ['about']);
  const sourceUrl = app.deps.config.SOURCE_URL ?? OWN_SOURCE_PATH;
  const root = opts.sourceRoot === undefined ? findSourceRoot() : opts.sourceRoot;
  const archive = root ? new SourceArchiveCache(root, app.deps.config.dataDir) : null;
  if (archive) app.addHook('onClose', () => archive.close());

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
      response: {
        200: z.any(),
        302: z.null(),
        404: z.object({ statusCode: z.number(), code: z.string(), message: z.string() }),
      },
    },
    async (_req, reply) => {
      if (sourceUrl !== OWN_SOURCE_PATH) return reply.redirect(sourceUrl);
      if (!archive) throw new AppError(404, 'sourceUnavailable');
      let file: string;
      try {
        file = await archive.file();
      } catch (e) {
        if (e instanceof NoSourceListError) throw new AppError(404, 'sourceUnavailable');
        throw e;
      }
      return reply
        .type('application/gzip')
        .header('content-disposition', 'attachment; filename="kulu-source.tar.gz"')
        .header('content-length', (await fs.promises.stat(file)).size)
        .send(fs.createReadStream(file));
    },
  );
}
