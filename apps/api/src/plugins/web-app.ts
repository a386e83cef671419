import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/**
 * A file the web build names by its content (Vite's `assets/<name>-<hash>.<ext>`): a new build
 * gives changed content a new name, so a browser may keep it for a year without asking again.
 */
const HASHED = /^assets\/(?:.+\/)?[^/]+-[\w-]{8,}\.[a-z0-9]+$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: kept, but asked again (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';

/** The Cache-Control of a web build's file, from its path in the build (`assets/x-AbCd1234.js`). */
export function webCacheControl(relativePath: string): string {
  const file = relativePath
    .split(path.sep)
    .join('/')
    .replace(/\.(br|gz)$/, '');
  return HASHED.test(file) ? IMMUTABLE : REVALIDATE;
}

/**
 * Serves the web build at `/`: each file's brotli or gzip copy written at build time
 * (apps/web/scripts/precompress.mjs) when the browser accepts it (`Vary: Accept-Encoding`), the
 * file itself otherwise; hashed files cached for a year, the rest revalidated. The compressed
 * copies are not paths of their own.
 */
export async function registerWebApp(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders: (reply, file) => {
      reply.header('cache-control', webCacheControl(path.relative(root, file)));
    },
  });
}
