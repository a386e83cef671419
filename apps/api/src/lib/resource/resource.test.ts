import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_MESSAGES, defineMaster, reqText } from '@kulu/shared';
import { buildApp } from '../../app.js';
import { clients, subCompanies } from '../../db/schema/index.js';
import { AppError } from '../errors.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { registerResource } from './resource.routes.js';
import { sendXlsx } from './export.js';
import type { ResourceDef, WriteEvent } from './resource.service.js';

/**
 * A test-only resource nested under its client, `/api/test/clients/:clientId/sub-companies`,
 * registered on an app of its own over the test database: the parent is scoped and the
 * after-write hook runs inside the write's transaction.
 */
const meta = defineMaster({
  key: 'testSubCompanies',
  path: 'sub-companies',
  menuKey: 'testSubCompanies',
  permission: 'general',
  searchable: ['name'],
  sortable: ['name', 'id'],
  defaultSort: 'name',
  filters: {},
  columns: [{ key: 'name', labelKey: 'masters.fields.name', type: 'text' }],
  fields: [{ key: 'name', labelKey: 'masters.fields.name', type: 'text', required: true }],
  messages: DEFAULT_MESSAGES,
  entity: z.object({ id: z.number().int(), name: z.string(), clientId: z.number().int() }),
  create: z.object({ name: reqText(200) }),
});

const events: Array<WriteEvent & { visibleInTx: number }> = [];
const def: ResourceDef = {
  meta,
  table: subCompanies,
  id: subCompanies.id,
  select: { id: subCompanies.id, name: subCompanies.name, clientId: subCompanies.clientId },
  parent: {
    param: 'clientId',
    column: subCompanies.clientId,
    parentId: clients.id,
    parentScope: { clientId: clients.id },
  },
  async afterWrite(tx, event) {
    // What the hook sees is the transaction's own state: the written row is there (or gone).
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(subCompanies)
      .where(eq(subCompanies.id, event.id));
    events.push({ ...event, visibleInTx: Number(n) });
    if ((event.after?.name as string | undefined)?.startsWith('Refused'))
      throw new AppError(409, 'nameExists');
  },
};

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let companyAdmin: string;
let own: number;
let other: number;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const base = (clientId: number | string) => `/api/test/clients/${clientId}/sub-companies`;
const namesIn = async (clientId: number) =>
  (
    await t.deps.database.db
      .select({ name: subCompanies.name })
      .from(subCompanies)
      .where(eq(subCompanies.clientId, clientId))
  ).map((r) => r.name);

beforeAll(async () => {
  t = await createTestApp();
  app = await buildApp(t.deps);
  await app.register(async (a) =>
    registerResource(a, def, { base: '/api/test/clients/:clientId/sub-companies' }),
  );
  // An export whose query the database refuses (PostgreSQL's "invalid byte sequence": 22021).
  app.get('/api/test/export-refused', { config: { public: true } }, async (req, reply) => {
    async function* refused(): AsyncGenerator<Record<string, unknown>[]> {
      yield* [];
      throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
    }
    return sendXlsx(req, reply, meta, refused(), 'en');
  });
  await app.ready();
  admin = await t.login(DEMO.admin);
  companyAdmin = await t.login(DEMO.companyAdmin);
  const lookup = (
    await t.inject({ method: 'GET', url: '/api/masters/lookups/clients', token: admin })
  ).json() as Array<{
    id: number;
    name: string;
  }>;
  own = lookup.find((c) => c.name.startsWith('Pohjola'))!.id;
  other = lookup.find((c) => c.name.startsWith('Saimaan'))!.id;
});
afterAll(async () => {
  await app?.close();
  await t?.close();
});

describe('export', () => {
  it('answers a query the database refuses with 400, not a cut-off file', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/export-refused' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalidValue' });
    expect(res.headers['content-type']).toMatch(/json/);
  });
});

describe('a nested resource', () => {
  it('lists and writes the rows of the client in the path, for a caller whose scope holds it', async () => {
    const created = await call('POST', base(own), companyAdmin, { name: 'Nested Oy' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Nested Oy', clientId: own });
    const list = (await call('GET', `${base(own)}?q=Nested`, companyAdmin)).json();
    expect(list.items.map((r: { name: string }) => r.name)).toEqual(['Nested Oy']);
    // The provider reaches every client's rows.
    expect((await call('GET', `${base(other)}`, admin)).statusCode).toBe(200);
  });

  it('answers 404 for another client, an unknown client and a row of another parent', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await call(method, base(other), companyAdmin, { name: 'Intruder Oy' });
      expect(res.statusCode, method).toBe(404);
    }
    expect((await call('GET', base(987654), admin)).statusCode).toBe(404);
    expect(await namesIn(other)).not.toContain('Intruder Oy');
    const theirs = (await call('POST', base(other), admin, { name: 'Theirs Oy' })).json();
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      // Their row through the caller's own client, and through theirs.
      expect((await call(method, `${base(own)}/${theirs.id}`, admin, { name: 'x' })).statusCode, method).toBe(
        404,
      );
      expect(
        (await call(method, `${base(other)}/${theirs.id}`, companyAdmin, { name: 'x' })).statusCode,
      ).toBe(404);
    }
    expect(await namesIn(other)).toContain('Theirs Oy');
  });

  it('refuses a malformed parent id with 400', async () => {
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await call('GET', base(bad), admin);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('invalidId');
    }
  });

  it('calls the after-write hook inside the transaction with the row before and after', async () => {
    events.length = 0;
    const row = (await call('POST', base(own), companyAdmin, { name: 'Hooked Oy' })).json();
    await call('PUT', `${base(own)}/${row.id}`, companyAdmin, { name: 'Hooked Ab' });
    await call('DELETE', `${base(own)}/${row.id}`, companyAdmin);
    expect(events.map((e) => [e.type, e.before?.name ?? null, e.after?.name ?? null, e.visibleInTx])).toEqual(
      [
        ['create', null, 'Hooked Oy', 1],
        ['update', 'Hooked Oy', 'Hooked Ab', 1],
        ['delete', 'Hooked Ab', null, 0],
      ],
    );
    expect(events.every((e) => e.parentId === own && e.id === row.id)).toBe(true);
  });

  it('rolls the write back when the hook throws', async () => {
    const refused = await call('POST', base(own), companyAdmin, { name: 'Refused Oy' });
    expect(refused.statusCode).toBe(409);
    expect(await namesIn(own)).not.toContain('Refused Oy');
    const row = (await call('POST', base(own), companyAdmin, { name: 'Kept Oy' })).json();
    expect(
      (await call('PUT', `${base(own)}/${row.id}`, companyAdmin, { name: 'Refused Ab' })).statusCode,
    ).toBe(409);
    expect(await namesIn(own)).toContain('Kept Oy');
  });
});
