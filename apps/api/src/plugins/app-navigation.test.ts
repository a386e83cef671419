import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers.js';

/**
 * A page's path typed or linked without the `#` (`/company/dashboard`) reaches the web app, which
 * routes it; the API's own paths keep their JSON 404. Over a web build of its own (one index.html).
 */
let t: TestApp;
let webDist: string;
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

beforeAll(async () => {
  webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'kulu-web-'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>Kulu</title>');
  t = await createTestApp({ WEB_DIST: webDist });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('a page path without the hash', () => {
  it('sends a browser to the hash route of the path it asked for, query included', async () => {
    const res = await t.inject({
      method: 'GET',
      url: '/company/dashboard/costAndUsage?month=2026-01',
      headers: { accept: HTML },
    });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/#/company/dashboard/costAndUsage?month=2026-01');
  });

  it('keeps the redirect on this site for a path that looks like another host', async () => {
    const res = await t.inject({ method: 'GET', url: '//evil.example/x', headers: { accept: HTML } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/#//evil.example/x');
  });

  it('still serves the app itself at /', async () => {
    const res = await t.inject({ method: 'GET', url: '/', headers: { accept: HTML } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<title>Kulu</title>');
  });

  it.each([
    ['an unknown /api path asked by a browser', 'GET', '/api/no-such-thing', HTML],
    ['/api itself', 'GET', '/api', HTML],
    ['a request that does not accept HTML', 'GET', '/company/dashboard', 'application/json'],
    ['a missing script file', 'GET', '/assets/missing.js', '*/*'],
    ['a POST', 'POST', '/company/dashboard', HTML],
  ] as const)('answers %s with the JSON 404', async (_name, method, url, accept) => {
    const res = await t.inject({ method, url, headers: { accept } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, code: 'notFound' });
  });
});
