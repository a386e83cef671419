import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from '../apps/web/scripts/precompress.mjs';

/** Issue 37 item 20: the web build writes a brotli and a gzip copy of its text files. */
let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function dist(files: Record<string, string | Buffer>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-precompress-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

describe('precompress', () => {
  it('writes a brotli and a gzip copy of each script, style and page, each the same bytes unpacked', async () => {
    const script = `console.log(${JSON.stringify('kulu '.repeat(2000))});`;
    const root = dist({
      'assets/index-AbCd1234.js': script,
      'index.html': `<html>${'<p>x</p>'.repeat(500)}</html>`,
    });
    await precompress(root);
    const js = path.join(root, 'assets/index-AbCd1234.js');
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${js}.br`)).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(`${js}.gz`)).toString()).toBe(script);
    expect(fs.statSync(`${js}.br`).size).toBeLessThan(script.length / 10);
    expect(fs.existsSync(path.join(root, 'index.html.br'))).toBe(true);
    expect(fs.existsSync(path.join(root, 'index.html.gz'))).toBe(true);
  });

  it('leaves small files, pictures and the build’s own manifest as they are', async () => {
    const root = dist({
      'favicon.svg': '<svg/>',
      'assets/logo-AbCd1234.png': Buffer.alloc(4096, 7),
      '.vite/manifest.json': JSON.stringify({ a: 'x'.repeat(4000) }),
    });
    await precompress(root);
    const written = fs.readdirSync(root, { recursive: true, encoding: 'utf8' });
    expect(written.filter((f) => /\.(br|gz)$/.test(f))).toEqual([]);
  });

  it('writes no copy that would be bigger than its file (bytes that do not compress)', async () => {
    const root = dist({ 'assets/data-AbCd1234.json': crypto.randomBytes(4096) });
    await precompress(root);
    expect(fs.readdirSync(path.join(root, 'assets'))).toEqual(['data-AbCd1234.json']);
  });
});
