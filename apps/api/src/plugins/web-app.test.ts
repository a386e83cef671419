import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { IMMUTABLE, REVALIDATE, webCacheControl } from './web-app.js';

/**
 * Issue 37 item 20: the web build's files go out precompressed (the brotli or gzip copy written at
 * build time, chosen by Accept-Encoding, with Vary) and hashed files are cached for a year while
 * index.html is revalidated. Over a web build of its own, through the whole app.
 */
let t: TestApp;
let webDist: string;
const SCRIPT = 'assets/index-AbCd12_-.js';
const scriptText = `export const kulu = ${JSON.stringify('x'.repeat(4000))};\n`;
const indexText = `<!doctype html><title>Kulu</title><script type="module" src="./${SCRIPT}"></script>${'<!-- -->'.repeat(300)}`;

function writeWithCopies(rel: string, text: string) {
  const file = path.join(webDist, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
}

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-web-'));
  writeWithCopies('index.html', indexText);
  writeWithCopies(SCRIPT, scriptText);
  fs.writeFileSync(path.join(webDist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  t.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

describe('the web build over the network', () => {
  it('sends the brotli copy of a script to a browser that accepts brotli', async () => {
    const res = await get(`/${SCRIPT}`, 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(scriptText);
  });

  it('sends the gzip copy to a browser that accepts gzip only', async () => {
    const res = await get(`/${SCRIPT}`, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(scriptText);
  });

  it('sends the file itself to a client that accepts no compression, still saying it varies', async () => {
    const res = await get(`/${SCRIPT}`);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.body).toBe(scriptText);
  });

  it('lets a browser keep a hashed file for a year without asking again', async () => {
    const res = await get(`/${SCRIPT}`, 'br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('has the browser revalidate index.html (compressed too) and answers 304 when unchanged', async () => {
    const res = await get('/', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(indexText);
    const again = await t.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('revalidates an unhashed file beside index.html (the icon) and sends it as it is', async () => {
    const res = await get('/favicon.svg', 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('does not serve the compressed copies as paths of their own', async () => {
    const res = await get(`/${SCRIPT}.br`);
    expect(res.statusCode).toBe(404);
  });
});

describe('the cache rule of a build file', () => {
  it.each([
    ['assets/index-BxYz12_a.js', IMMUTABLE],
    ['assets/index-BxYz12_a.js.br', IMMUTABLE],
    ['assets/login-page-C0ffee42.css', IMMUTABLE],
    ['index.html', REVALIDATE],
    ['favicon.svg', REVALIDATE],
    ['assets/unhashed.js', REVALIDATE],
  ])('%s: %s', (file, expected) => {
    expect(webCacheControl(file)).toBe(expected);
  });
});
