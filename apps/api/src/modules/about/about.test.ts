import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KULU_LICENCE } from '@kulu/shared';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import type { Deps } from '../../types.js';
import { aboutRoutes } from './about.routes.js';
import { findSourceRoot, sourceArchive } from './source-archive.js';

/** Names and contents of a .tar.gz's regular files, read by its ustar headers. */
function untar(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz);
  const files = new Map<string, Buffer>();
  const field = (h: Buffer, at: number, len: number) =>
    h.toString('utf8', at, at + len).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length;) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
    expect(parseInt(field(h, 148, 8), 8)).toBe(sum);
    const prefix = field(h, 345, 155);
    const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
    const size = parseInt(field(h, 124, 12), 8);
    files.set(name, Buffer.from(tar.subarray(at + 512, at + 512 + size)));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
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

  it("serves the running checkout's source as a .tar.gz with the licence and without dependencies", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/source' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toContain('kulu-source.tar.gz');
    const files = untar(res.rawPayload);
    const root = findSourceRoot()!;
    expect(files.get('kulu/LICENSE')?.toString()).toContain('GNU AFFERO GENERAL PUBLIC LICENSE');
    expect(files.get('kulu/apps/api/src/modules/about/about.routes.ts')).toEqual(
      fs.readFileSync(path.join(root, 'apps/api/src/modules/about/about.routes.ts')),
    );
    expect(files.has('kulu/package-lock.json')).toBe(true);
    const names = [...files.keys()];
    expect(names.filter((n) => /\/(node_modules|dist|data)\/|\/\.env|\/\.git\//.test(n))).toEqual([]);
  });

  it('packs no data directory, .env file or dependency even when they sit inside the checkout', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-src-'));
    try {
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'kulu' }));
      fs.writeFileSync(path.join(root, 'LICENSE'), 'AGPL');
      for (const f of [
        'apps/api/src/a.ts',
        'apps/api/.env',
        'apps/api/data/secrets/jwt',
        'apps/api/node_modules/x/i.js',
        'apps/api/dist/server.js',
      ]) {
        fs.mkdirSync(path.join(root, path.dirname(f)), { recursive: true });
        fs.writeFileSync(path.join(root, f), 'x');
      }
      const long = `packages/${'deep/'.repeat(30)}file-with-a-long-name.ts`;
      fs.mkdirSync(path.join(root, path.dirname(long)), { recursive: true });
      fs.writeFileSync(path.join(root, long), 'long');
      const files = untar(sourceArchive(root));
      expect([...files.keys()].sort()).toEqual([
        'kulu/LICENSE',
        'kulu/apps/api/src/a.ts',
        'kulu/package.json',
        `kulu/${long}`,
      ]);
      expect(files.get(`kulu/${long}`)?.toString()).toBe('long');
      expect(findSourceRoot(path.join(root, 'apps/api/src'))).toBe(root);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('sends the source link to SOURCE_URL when one is set', async () => {
    // The routes alone: they read nothing but the configuration.
    const other = Fastify();
    other.setValidatorCompiler(validatorCompiler);
    other.setSerializerCompiler(serializerCompiler);
    other.decorate('deps', { config: loadConfig({ SOURCE_URL: 'https://example.org/kulu.git' }) } as Deps);
    await other.register(aboutRoutes);
    try {
      expect((await other.inject({ method: 'GET', url: '/api/about' })).json().sourceUrl).toBe(
        'https://example.org/kulu.git',
      );
      const res = await other.inject({ method: 'GET', url: '/api/source' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://example.org/kulu.git');
    } finally {
      await other.close();
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
