import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { DEFAULT_MESSAGES, defineMaster, reqText } from '@kulu/shared';
import { buildApp } from '../../app.js';
import { activityLog, clientOperators, clients, operators, subCompanies } from '../../db/schema/index.js';
import { AppError } from '../errors.js';
import { createTestApp, DEMO, type TestApp } from '../../test/helpers.js';
import { registerResource } from './resource.routes.js';
import { sendXlsx } from './export.js';
import type { ResourceDef, WriteEvent } from './resource.service.js';

/**
 * A test-only resource nested under its client, `/api/test/companies/:clientId/sub-companies` (a path
 * the access plugin does not read as a client's: the mechanism's own parent check is what is tested),
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

/**
 * The same table as another resource of its own: only the rows its fixed filter takes (`rows`),
 * a write step inside the transaction (`afterSave`), a step after the commit (`afterCommit`)
 * and no delete route.
 */
const taggedMeta = defineMaster({
  ...meta,
  key: 'testTaggedSubCompanies',
  entity: meta.entity.extend({ numberOfUsers: z.number().int() }),
});
const validatedParents: Array<number | undefined> = [];
const committed: Array<{ type: string; name: unknown; committedRows: number }> = [];
const taggedDef: ResourceDef = {
  ...def,
  meta: taggedMeta,
  select: { ...def.select, numberOfUsers: subCompanies.numberOfUsers },
  afterWrite: undefined,
  rows: sql`${subCompanies.name} like 'Tagged %'`,
  toValues: (input) => ({ name: `Tagged ${input.name as string}`, numberOfUsers: 0 }),
  async validate(_tx, _input, _existing, _caller, parentId) {
    validatedParents.push(parentId);
  },
  async afterSave(tx, { id, type }) {
    await tx
      .update(subCompanies)
      .set({ numberOfUsers: type === 'create' ? 7 : 8 })
      .where(eq(subCompanies.id, id));
  },
  async afterCommit(deps, event) {
    // Outside the write's transaction: what the database holds for everyone.
    const [{ n }] = await deps.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(subCompanies)
      .where(eq(subCompanies.id, event.id));
    committed.push({ type: event.type, name: event.after?.name, committedRows: Number(n) });
  },
};
const tagged = (clientId: number | string) => `/api/test/companies/${clientId}/tagged-sub-companies`;

/**
 * Rows owned by the client the request names (`owner`: the query's or body's `clientId`, else the
 * caller's own), a sort key of its own (`sortBy`), no detail route, a delete that answers its id,
 * and what the write step answers reaching the after-commit step (`saved`).
 */
const ownedMeta = defineMaster({
  ...meta,
  key: 'testOwnedSubCompanies',
  sortable: ['name', 'id', 'nameLength'],
  // The list names its client as a filter.
  filters: { clientId: { type: 'id' } },
  savedAs: 'subCompany',
  deleteAnswersId: true,
  create: z.object({ clientId: z.number().int().optional(), name: reqText(200) }),
});
const ownedSaved: unknown[] = [];
const ownedDef: ResourceDef = {
  ...def,
  meta: ownedMeta,
  parent: undefined,
  afterWrite: undefined,
  scopeColumns: { clientId: subCompanies.clientId },
  owner: {
    column: subCompanies.clientId,
    async resolve(caller, values) {
      const clientId = (values.clientId as number | undefined) ?? caller.scope.ownClientId!;
      await caller.scope.assertClient(clientId);
      return clientId;
    },
  },
  toValues: (input) => ({ name: input.name }),
  sortBy: { nameLength: sql`length(${subCompanies.name})` },
  afterSave: async (_tx, { id }) => `saved ${id}`,
  async afterCommit(_deps, event) {
    ownedSaved.push(event.saved);
  },
};
const owned = '/api/test/owned-sub-companies';

/**
 * A whole list (`unpaged`), values read in the write's transaction after the rules (`toValues`
 * with `tx`), a message and a logged action chosen per row.
 */
const listedMeta = defineMaster({ ...meta, key: 'testListedSubCompanies', savedAs: 'subCompany' });
const listedDef: ResourceDef = {
  ...def,
  meta: listedMeta,
  afterWrite: undefined,
  async toValues(input, _existing, _caller, { tx, parentId }) {
    // The number of the client's sub-companies so far, read in the transaction, names the row.
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(subCompanies)
      .where(eq(subCompanies.clientId, parentId!));
    return { name: `${input.name as string} #${Number(n)}` };
  },
  savedMessage: (row, type) =>
    (row.name as string).startsWith('Draft') ? 'nameExists' : type === 'create' ? 'created' : 'updated',
  activityAction: (e) => ((e.after?.name as string | undefined)?.startsWith('Draft') ? 'activate' : e.type),
  activityEntity: 'testListed',
};
const listed = (clientId: number) => `/api/test/companies/${clientId}/listed-sub-companies`;

/**
 * Rows named in the path by another column than their id (`key`: a client's row per operator,
 * `/:operatorId`), saved by PUT whether or not the row exists (`upsert`), with `totals` beside a
 * whole list.
 */
const keyedMeta = defineMaster({
  ...meta,
  key: 'testKeyedOperators',
  sortable: ['id'],
  defaultSort: 'id',
  totals: { free: z.number().int() },
  entity: z.object({
    id: z.number().int(),
    clientId: z.number().int(),
    operatorId: z.number().int(),
    salesContactName: z.string().nullable(),
  }),
  create: z.object({ salesContactName: reqText(200) }),
});
const keyedDef: ResourceDef = {
  meta: keyedMeta,
  table: clientOperators,
  id: clientOperators.id,
  select: {
    id: clientOperators.id,
    operatorId: clientOperators.operatorId,
    salesContactName: clientOperators.salesContactName,
    clientId: clientOperators.clientId,
  },
  parent: { ...def.parent!, column: clientOperators.clientId },
  key: { param: 'operatorId', column: clientOperators.operatorId, upsert: true, references: operators.id },
  toValues: (input) => ({ salesContactName: input.salesContactName }),
  async totals(db, { where }) {
    const [{ n }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(clientOperators)
      .where(where);
    return { free: Number(n) };
  },
  activityEntity: 'testKeyed',
};
const keyed = (clientId: number) => `/api/test/companies/${clientId}/keyed-operators`;

let t: TestApp;
let app: FastifyInstance;
let admin: string;
let companyAdmin: string;
let own: number;
let other: number;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
  app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
const base = (clientId: number | string) => `/api/test/companies/${clientId}/sub-companies`;
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
    registerResource(a, def, { base: '/api/test/companies/:clientId/sub-companies' }),
  );
  await app.register(async (a) =>
    registerResource(a, taggedDef, {
      base: '/api/test/companies/:clientId/tagged-sub-companies',
      without: ['delete'],
    }),
  );
  await app.register(async (a) => registerResource(a, ownedDef, { base: owned, without: ['get'] }));
  await app.register(async (a) =>
    registerResource(a, listedDef, {
      base: '/api/test/companies/:clientId/listed-sub-companies',
      unpaged: true,
    }),
  );
  await app.register(async (a) =>
    registerResource(a, keyedDef, {
      base: '/api/test/companies/:clientId/keyed-operators',
      unpaged: true,
      without: ['export', 'options'],
    }),
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

describe('a resource with a fixed row filter, a write step and a step after the commit', () => {
  it('lists, reads and writes only the rows of its fixed filter', async () => {
    const plain = (await call('POST', base(own), companyAdmin, { name: 'Plain Oy' })).json();
    const mine = (await call('POST', tagged(own), companyAdmin, { name: 'Filtered Oy' })).json();
    expect(mine.name).toBe('Tagged Filtered Oy');
    const names = (await call('GET', tagged(own), companyAdmin))
      .json()
      .items.map((r: { name: string }) => r.name);
    expect(names).toContain('Tagged Filtered Oy');
    expect(names).not.toContain('Plain Oy');
    expect((await call('GET', `${tagged(own)}/${plain.id}`, companyAdmin)).statusCode).toBe(404);
    expect((await call('PUT', `${tagged(own)}/${plain.id}`, companyAdmin, { name: 'x' })).statusCode).toBe(
      404,
    );
    expect(await namesIn(own)).toContain('Plain Oy');
  });

  it('runs the write step inside the transaction, before the row is read back, with the parent validated', async () => {
    validatedParents.length = 0;
    const created = await call('POST', tagged(own), companyAdmin, { name: 'Stepped Oy' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().numberOfUsers).toBe(7);
    const updated = await call('PUT', `${tagged(own)}/${created.json().id}`, companyAdmin, {
      name: 'Stepped Ab',
    });
    expect(updated.json()).toMatchObject({ name: 'Tagged Stepped Ab', numberOfUsers: 8 });
    expect(validatedParents).toEqual([own, own]);
  });

  it('runs the after-commit step once the write is committed, and not for a refused write', async () => {
    committed.length = 0;
    const row = (await call('POST', tagged(own), companyAdmin, { name: 'Committed Oy' })).json();
    await call('PUT', `${tagged(own)}/${row.id}`, companyAdmin, { name: 'Committed Ab' });
    expect((await call('POST', tagged(own), companyAdmin, {})).statusCode).toBe(400);
    expect(committed).toEqual([
      { type: 'create', name: 'Tagged Committed Oy', committedRows: 1 },
      { type: 'update', name: 'Tagged Committed Ab', committedRows: 1 },
    ]);
  });

  it('has no delete route when registered without it', async () => {
    const row = (await call('POST', tagged(own), companyAdmin, { name: 'Kept Forever Oy' })).json();
    expect((await call('DELETE', `${tagged(own)}/${row.id}`, companyAdmin)).statusCode).toBe(404);
    expect(await namesIn(own)).toContain('Tagged Kept Forever Oy');
  });
});

describe('a resource owned by the client its request names', () => {
  it('lists the named client’s rows, or the caller’s own, and 404 for one out of scope', async () => {
    await call('POST', owned, admin, { clientId: other, name: 'Owned By Other Oy' });
    const mine = await call('POST', owned, companyAdmin, { name: 'Owned By Me Oy' });
    expect(mine.statusCode, mine.body).toBe(201);
    expect(mine.json().subCompany).toMatchObject({ clientId: own, name: 'Owned By Me Oy' });
    const names = (url: string, token: string) =>
      call('GET', url, token).then((r) => r.json().items.map((i: { name: string }) => i.name));
    expect(await names(`${owned}?q=Owned`, companyAdmin)).toEqual(['Owned By Me Oy']);
    expect(await names(`${owned}?q=Owned&clientId=${other}`, admin)).toEqual(['Owned By Other Oy']);
    expect((await call('GET', `${owned}?clientId=${other}`, companyAdmin)).statusCode).toBe(404);
    expect(
      (await call('POST', owned, companyAdmin, { clientId: other, name: 'Intruder Oy' })).statusCode,
    ).toBe(404);
    expect(await namesIn(other)).not.toContain('Intruder Oy');
  });

  it('sorts by a declared expression, has no detail route, and a delete answers its id', async () => {
    await call('POST', owned, companyAdmin, { name: 'Sorted Longest Name Oy' });
    await call('POST', owned, companyAdmin, { name: 'Sorted Oy' });
    const sorted = (await call('GET', `${owned}?q=Sorted&sort=nameLength&order=desc`, companyAdmin)).json();
    expect(sorted.items.map((i: { name: string }) => i.name)).toEqual([
      'Sorted Longest Name Oy',
      'Sorted Oy',
    ]);
    const id = sorted.items[1].id;
    expect((await call('GET', `${owned}/${id}`, companyAdmin)).statusCode).toBe(404);
    const deleted = await call('DELETE', `${owned}/${id}`, companyAdmin);
    expect(deleted.json()).toMatchObject({ id, code: 'deleted' });
  });

  it('hands what the write step answered to the after-commit step', async () => {
    ownedSaved.length = 0;
    const row = (await call('POST', owned, companyAdmin, { name: 'Handed Oy' })).json().subCompany;
    await call('PUT', `${owned}/${row.id}`, companyAdmin, { name: 'Handed Ab' });
    expect(ownedSaved).toEqual([`saved ${row.id}`, `saved ${row.id}`]);
  });
});

describe('a resource listed whole, with values read in the transaction and per-row messages', () => {
  it('lists every row in the declared order, without paging', async () => {
    const res = await call('GET', `${listed(own)}?page=2&pageSize=1`, companyAdmin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['items']);
    // Every row of the client, not a page of them.
    expect(body.items.length).toBe((await namesIn(own)).length);
    expect(body.items.length).toBeGreaterThan(1);
  });

  it('writes values read in the transaction, answers and logs per row', async () => {
    const before = (await call('GET', listed(own), companyAdmin)).json().items.length;
    const draft = await call('POST', listed(own), companyAdmin, { name: 'Draft Oy' });
    expect(draft.json()).toMatchObject({ subCompany: { name: `Draft Oy #${before}` }, code: 'nameExists' });
    const plain = await call('PUT', `${listed(own)}/${draft.json().subCompany.id}`, companyAdmin, {
      name: 'Plain',
    });
    expect(plain.json()).toMatchObject({ subCompany: { name: `Plain #${before + 1}` }, code: 'updated' });
    const actions = await t.deps.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.entity, 'testListed'))
      .orderBy(activityLog.id);
    expect(actions.map((a) => a.action)).toEqual(['activate', 'update']);
  });
});

describe('a resource named by a key of its own, saved by PUT (upsert)', () => {
  it('adds the row on the first PUT of a key and replaces it on the next, answering 200 with the message of each', async () => {
    const [op] = await t.deps.database.db.insert(operators).values({ name: 'Keyed Operator' }).returning();
    const url = `${keyed(own)}/${op.id}`;
    expect((await call('GET', url, companyAdmin)).statusCode).toBe(404);
    const added = await call('PUT', url, companyAdmin, { salesContactName: 'First' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ clientId: own, operatorId: op.id, salesContactName: 'First' });
    const id = added.json().id as number;
    // The entity's id is the row's, the key the operator's.
    const [row] = await t.deps.database.db
      .select({ id: clientOperators.id })
      .from(clientOperators)
      .where(and(eq(clientOperators.clientId, own), eq(clientOperators.operatorId, op.id)));
    expect(id).toBe(row.id);
    const replaced = await call('PUT', url, companyAdmin, { salesContactName: 'Second' });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json()).toMatchObject({ id, salesContactName: 'Second' });
    expect((await call('GET', url, companyAdmin)).json()).toMatchObject({ id, salesContactName: 'Second' });
    const logged = await t.deps.database.db
      .select({ action: activityLog.action, entityId: activityLog.entityId })
      .from(activityLog)
      .where(eq(activityLog.entity, 'testKeyed'));
    expect(logged).toEqual([
      { action: 'create', entityId: id },
      { action: 'update', entityId: id },
    ]);
    // The list is whole, with the declared totals beside it.
    const list = (await call('GET', keyed(own), companyAdmin)).json();
    expect(list.items.map((r: { operatorId: number }) => r.operatorId)).toContain(op.id);
    expect(list.free).toBe(list.items.length);
    // Named by the key, the delete answers the row's id.
    const deleted = await call('DELETE', url, companyAdmin);
    expect(deleted.json()).toMatchObject({ id, code: 'deleted' });
    expect((await call('GET', url, companyAdmin)).statusCode).toBe(404);
  });

  it('answers 404 for a key that names no row it points at, and for another client, writing nothing; has no POST', async () => {
    const before = await t.deps.database.db.select({ id: clientOperators.id }).from(clientOperators);
    const unknown = await call('PUT', `${keyed(own)}/999999`, admin, { salesContactName: 'X' });
    expect(unknown.statusCode).toBe(404);
    const [op] = await t.deps.database.db.insert(operators).values({ name: 'Keyed Other' }).returning();
    expect(
      (await call('PUT', `${keyed(other)}/${op.id}`, companyAdmin, { salesContactName: 'X' })).statusCode,
    ).toBe(404);
    expect((await call('POST', keyed(own), admin, { salesContactName: 'X' })).statusCode).toBe(404);
    const after = await t.deps.database.db.select({ id: clientOperators.id }).from(clientOperators);
    expect(after).toHaveLength(before.length);
  });
});
