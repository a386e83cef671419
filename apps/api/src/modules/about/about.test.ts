import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { extract } from 'tar-stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { KULU_LICENCE, message } from '@kulu/shared';
import { loadConfig } from '../../config.js';
import { registerErrorHandling } from '../../plugins/errors.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import type { Deps } from '../../types.js';
import { aboutRoutes } from './about.routes.js';
import {
  ARCHIVE_LIST,
  findSourceRoot,
  SOURCE_MANIFEST,
  SourceArchiveCache,
  writeSourceArchive,
} from './source-archive.js';
// @ts-expect-error -- a plain JavaScript module of the repository's scripts, without types
import { writeSourceManifest } from '../../../../../scripts/source-manifest.mjs';

/** Names and contents of a .tar.gz's regular files (pax long names included), read by tar-stream. */
async function untar(gz: Buffer | string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => chunks.push(c as Buffer));
    stream.on('end', () => {
      if (header.type === 'file') files.set(header.name, Buffer.concat(chunks));
      next();
    });
  });
  const input = typeof gz === 'string' ? fs.createReadStream(gz) : Readable.from([gz]);
  await pipeline(input, createGunzip(), reader);
  return files;
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, stdio: 'pipe' });

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-src-'));
  temps.push(dir);
  return dir;
};
const write = (root: string, rel: string, body = 'x') => {
  fs.mkdirSync(path.join(root, path.dirname(rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), body);
};

const LONG = `packages/${'deep/'.repeat(30)}file-with-a-long-name.ts`;
/** What an attacker looked for in the issue: none of these is tracked, each sits in the checkout. */
const SECRETS = [
  '.env',
  'apps/api/.env.production',
  '.npmrc',
  'server.pem',
  'apps/api/kulu.log',
  'apps/api/dist/server.js',
  'node_modules/x/index.js',
  // DATA_DIR inside the checkout under a name no rule knows
  'state/secrets/jwt-secret',
  'state/secrets/encryption-key',
  'state/postgres/base/1/1259',
  'state/outbox/reset.eml',
];

/**
 * A checkout with a git index: a few tracked files (one with a long path), the secrets above
 * untracked beside them, a file force-added inside DATA_DIR and a tracked link to a file outside.
 */
function checkout(): { root: string; dataDir: string; tracked: string[] } {
  const root = tempDir();
  const tracked = ['package.json', 'LICENSE', 'apps/api/src/a.ts', '.env.example', LONG];
  write(root, 'package.json', JSON.stringify({ name: 'kulu' }));
  write(root, 'LICENSE', 'AGPL');
  write(root, 'apps/api/src/a.ts', 'export const a = 1;');
  write(root, '.env.example', 'PORT=8080');
  write(root, LONG, 'long');
  git(root, 'init', '-q');
  git(root, 'add', ...tracked);
  for (const s of SECRETS) write(root, s, `secret ${s}`);
  // Tracked by mistake inside DATA_DIR, and a link to the server's own files: never packed either.
  write(root, 'state/mistake.txt', 'tracked by mistake');
  git(root, 'add', '-f', 'state/mistake.txt');
  fs.writeFileSync(path.join(tempDir(), 'outside'), 'outside');
  fs.symlinkSync('/etc/passwd', path.join(root, 'passwd-link'));
  git(root, 'add', 'passwd-link');
  return { root, dataDir: path.join(root, 'state'), tracked };
}

describe('the source offer (AGPL-3.0 §13)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('tells anyone, signed in or not, the licence and where the source is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/about' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ product: 'Kulu', licence: KULU_LICENCE, sourceUrl: '/api/source' });
  });

  it("serves the running checkout's tracked files as a .tar.gz, the licence in, nothing untracked", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/source' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toContain('kulu-source.tar.gz');
    const files = await untar(res.rawPayload);
    const root = findSourceRoot()!;
    expect(files.get('kulu/LICENSE')?.toString()).toContain('GNU AFFERO GENERAL PUBLIC LICENSE');
    expect(files.get('kulu/apps/api/src/modules/about/about.routes.ts')).toEqual(
      fs.readFileSync(path.join(root, 'apps/api/src/modules/about/about.routes.ts')),
    );
    expect(files.has('kulu/package-lock.json')).toBe(true);
    const tracked = new Set(
      execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean),
    );
    const untracked = [...files.keys()].filter(
      (n) => n !== `kulu/${ARCHIVE_LIST}` && !tracked.has(n.slice('kulu/'.length)),
    );
    expect(untracked).toEqual([]);
    // The archive's own list names what it packed, for a build from the unpacked archive.
    expect(JSON.parse(files.get(`kulu/${ARCHIVE_LIST}`)!.toString())).toEqual(
      [...files.keys()].filter((n) => n !== `kulu/${ARCHIVE_LIST}`).map((n) => n.slice(5)),
    );
  });
});

describe('what the source archive packs', () => {
  it("packs the git index's files only: no untracked secret, nothing in DATA_DIR, no link out", async () => {
    const { root, dataDir, tracked } = checkout();
    const out = path.join(tempDir(), 'a.tar.gz');
    const packed = await writeSourceArchive(root, out, { dataDir });
    expect(packed).toEqual([...tracked].sort());
    const files = await untar(out);
    expect([...files.keys()].sort()).toEqual(
      [...tracked.map((f) => `kulu/${f}`), `kulu/${ARCHIVE_LIST}`].sort(),
    );
    expect(files.get(`kulu/${LONG}`)?.toString()).toBe('long');
    for (const body of files.values()) expect(body.toString()).not.toMatch(/secret|tracked by mistake|root:/);
  });

  it('packs no file under DATA_DIR even when DATA_DIR is reached through a link', async () => {
    const { root, tracked } = checkout();
    const link = path.join(tempDir(), 'data-link');
    fs.symlinkSync(path.join(root, 'apps'), link);
    const packed = await writeSourceArchive(root, path.join(tempDir(), 'a.tar.gz'), { dataDir: link });
    expect(packed).toEqual([...tracked.filter((f) => !f.startsWith('apps/')), 'state/mistake.txt'].sort());
  });

  it("without a git index packs the build's manifest, and only what it names inside the checkout", async () => {
    const { root, dataDir } = checkout();
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    const out = path.join(tempDir(), 'a.tar.gz');
    await expect(writeSourceArchive(root, out, { dataDir })).rejects.toThrow(/no git index/);
    write(
      root,
      SOURCE_MANIFEST,
      JSON.stringify([
        'LICENSE',
        'apps/api/src/a.ts',
        '../outside',
        '/etc/passwd',
        'state/mistake.txt',
        '.npmrc',
      ]),
    );
    expect(await writeSourceArchive(root, out, { dataDir })).toEqual(['LICENSE', 'apps/api/src/a.ts']);
  });

  it('the build writes the manifest from the git index, or from the list of an unpacked archive', async () => {
    const { root, dataDir, tracked } = checkout();
    const manifest = path.join(tempDir(), 'source-files.json');
    expect(writeSourceManifest(root, manifest)).toEqual(expect.arrayContaining(tracked));
    // Unpack the archive where no git index is, build its manifest, pack again: the same files.
    const out = path.join(tempDir(), 'a.tar.gz');
    const first = await writeSourceArchive(root, out, { dataDir });
    const unpacked = tempDir();
    for (const [name, body] of await untar(out)) write(unpacked, name.slice('kulu/'.length), body.toString());
    fs.mkdirSync(path.join(unpacked, path.dirname(SOURCE_MANIFEST)), { recursive: true });
    const written = writeSourceManifest(unpacked, path.join(unpacked, SOURCE_MANIFEST));
    expect(written).toEqual(first);
    expect(await writeSourceArchive(unpacked, path.join(tempDir(), 'b.tar.gz'))).toEqual(first);
    expect(findSourceRoot(path.join(unpacked, 'apps/api/src'))).toBe(unpacked);
  });

  it('builds once per process and hands every later download the same file', async () => {
    const { root, dataDir } = checkout();
    const cache = new SourceArchiveCache(root, dataDir);
    try {
      const [a, b] = await Promise.all([cache.file(), cache.file()]);
      expect(a).toBe(b);
      const before = fs.statSync(a);
      write(root, 'LICENSE', 'changed after the first build');
      const c = await cache.file();
      expect(c).toBe(a);
      expect(fs.statSync(c).mtimeMs).toBe(before.mtimeMs);
    } finally {
      await cache.close();
    }
  });
});

describe('the source route', () => {
  /** The about routes alone on `root`, with DATA_DIR `dataDir` and the API's error answers. */
  async function routesOn(root: string | null, env: Record<string, string> = {}): Promise<FastifyInstance> {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate('deps', { config: loadConfig(env) } as Deps);
    registerErrorHandling(app);
    await app.register(aboutRoutes, { sourceRoot: root });
    return app;
  }

  it('answers other requests while it builds the archive, then serves it without DATA_DIR', async () => {
    const { root, dataDir, tracked } = checkout();
    const app = await routesOn(root, { DATA_DIR: dataDir });
    try {
      const order: string[] = [];
      const source = app.inject({ method: 'GET', url: '/api/source' }).then((r) => (order.push('source'), r));
      const about = app.inject({ method: 'GET', url: '/api/about' }).then((r) => (order.push('about'), r));
      const [res] = await Promise.all([source, about]);
      expect(order).toEqual(['about', 'source']);
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const names = [...(await untar(res.rawPayload)).keys()].sort();
      expect(names).toEqual([...tracked.map((f) => `kulu/${f}`), `kulu/${ARCHIVE_LIST}`].sort());
      // Cached: the second download is the same archive.
      expect((await app.inject({ method: 'GET', url: '/api/source' })).rawPayload).toEqual(res.rawPayload);
    } finally {
      await app.close();
    }
  });

  it('says in the caller’s language that it cannot tell its source without an index or manifest', async () => {
    const { root } = checkout();
    fs.rmSync(path.join(root, '.git'), { recursive: true });
    const app = await routesOn(root);
    try {
      for (const [lang, language] of [
        ['en', 'en'],
        ['fi-FI', 'fi'],
      ] as const) {
        const res = await app.inject({
          method: 'GET',
          url: '/api/source',
          headers: { 'accept-language': lang },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          code: 'sourceUnavailable',
          message: message('sourceUnavailable', language),
        });
      }
      expect(
        (await routesOn(null).then((a) => a.inject({ method: 'GET', url: '/api/source' }))).statusCode,
      ).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('sends the source link to SOURCE_URL when one is set', async () => {
    const app = await routesOn(null, { SOURCE_URL: 'https://example.org/kulu.git' });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/about' })).json().sourceUrl).toBe(
        'https://example.org/kulu.git',
      );
      const res = await app.inject({ method: 'GET', url: '/api/source' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.org/kulu.git');
    } finally {
      await app.close();
    }
  });

  it('takes SOURCE_URL as an http(s) address and refuses anything else', () => {
    expect(loadConfig({ SOURCE_URL: 'https://example.org/kulu' }).SOURCE_URL).toBe(
      'https://example.org/kulu',
    );
    expect(loadConfig({ SOURCE_URL: '' }).SOURCE_URL).toBeUndefined();
    expect(() => loadConfig({ SOURCE_URL: 'javascript:alert(1)' })).toThrow(/SOURCE_URL/);
  });
});
