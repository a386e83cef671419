import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { idSchema } from '@kulu/shared';
import { buildApp } from '../app.js';
import { createTestApp, type TestApp } from '../test/helpers.js';

/**
 * The error handler is the safety net under the schemas: whatever slips past them answers 400
 * with a message code, never 500. Test-only routes on an app of their own over the test database.
 */
let t: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(t.deps);
  const { db } = t.deps.database;
  const pub = { config: { public: true } };
  // Values the database itself refuses (class 22 data exceptions).
  app.get('/api/test/int-out-of-range', pub, async () => db.execute(sql`select ${'99999999999'}::int as n`));
  app.get('/api/test/nul', pub, async () => db.execute(sql`select ${'a\u0000b'}::text as s`));
  app.get('/api/test/not-a-number', pub, async () => db.execute(sql`select ${'abc'}::int as n`));
  // A schema parsed inside a handler.
  app.get('/api/test/zod', pub, async () => z.object({ id: idSchema }).parse({ id: 'abc' }));
  app.get('/api/test/bug', pub, async () => {
    throw new Error('a real bug');
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('error handler', () => {
  it.each(['int-out-of-range', 'nul', 'not-a-number'])(
    'answers a value the database refuses (%s) with 400',
    async (route) => {
      const res = await app.inject({ method: 'GET', url: `/api/test/${route}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalidValue',
        message: 'A value of the request cannot be stored',
      });
    },
  );

  it('answers a zod error thrown in a handler with 400 and its message code', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/test/zod',
      headers: { 'accept-language': 'fi' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'invalidId',
      message: 'Tunnisteen on oltava kokonaisluku väliltä 1–2147483647',
      fields: { id: 'invalid' },
    });
  });

  it('still answers 500 for a real bug', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/bug' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal');
  });
});
