import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, message, optionSchema, type MasterListQuery, type MessageCode } from '@kulu/shared';
import { callerOf } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { sendXlsx } from './export.js';
import {
  allRows,
  assertParent,
  createRow,
  deleteRow,
  getRow,
  listConditions,
  listRows,
  optionRows,
  updateRow,
  upsertRow,
  type ResourceDef,
  type Row,
} from './resource.service.js';

export const deletedSchema = z.object({ id: z.number().int(), code: z.string(), message: z.string() });
/** The answer of a delete of a resource whose writes answer with the message (`savedAs`). */
export const messageSchema = z.object({ code: z.string(), message: z.string() });

type RouteName = 'list' | 'export' | 'options' | 'get' | 'create' | 'update' | 'delete';

export interface RegisterOptions {
  /**
   * Where the resource lives, e.g. `/api/masters/operators` or, nested under its parent,
   * `/api/clients/:clientId/sub-companies` (the parameter is the resource's `parent.param`).
   */
  base: string;
  /** OpenAPI tags (default: the resource key). */
  tags?: string[];
  /** OpenAPI summaries of the routes. */
  summaries?: Partial<Record<RouteName, string>>;
  /**
   * The list answers `{ items }`: every row in the declared order, no paging, no query (and the
   * declared `totals` beside them).
   */
  unpaged?: boolean;
  /**
   * Routes the resource does without, e.g. `options` of rows that have no name, or `delete` of
   * rows that are deactivated by a workflow of their own instead.
   */
  without?: Array<'export' | 'options' | 'get' | 'delete'>;
}

/**
 * One resource, declared once (packages/shared + its ResourceDef), becomes:
 *   GET    <base>            list: page, pageSize ≤ 200, sort, order, q, filters
 *   GET    <base>/export     the same list (no paging) as .xlsx
 *   GET    <base>/options    [{ id, name }] for the forms' selects (filters apply)
 *   GET    <base>/:id
 *   POST   <base>            (unless the resource writes by a special route)
 *   PUT    <base>/:id        full replacement, validated like POST
 *   DELETE <base>/:id        409 when the row is in use
 * (`without` leaves out export, options, get or delete.) A keyed resource (`def.key`) names its
 * row by the key's parameter instead of `:id`; with `upsert` its PUT also adds a row (no POST).
 * A resource with an `owner` lists (and
 * exports, and offers options of) the rows of the client its query names, and creates under the
 * one its body names. After a write's commit the resource's
 * `afterCommit` runs with the app's deps.
 * Every route requires the resource's permission. A nested resource's parent id is validated as
 * an id and must be a parent row in the caller's scope (else 404) before anything else runs: a
 * body is validated only after it, so another client answers 404 whatever the body (the row's id
 * is looked up after validation: a bad body answers the same 400 for every id).
 * With `meta.savedAs`, POST and PUT answer `{ [savedAs]: entity, code, message }` and DELETE
 * `{ code, message }`; with `meta.totals`, the list answer carries them (`def.totals`).
 */
export function registerResource(app: FastifyInstance, def: ResourceDef, opts: RegisterOptions) {
  const kit = resourceKit(app, def, opts);
  registerReads(kit);
  registerWrites(kit);
}

/** What the routes of one resource share: its parts, schemas, parameters and the request's context. */
function resourceKit(app: FastifyInstance, def: ResourceDef, opts: RegisterOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { meta, parent, owner } = def;
  const db = app.deps.database.db;
  const { base } = opts;
  if (parent && !base.includes(`/:${parent.param}/`)) {
    throw new Error(`resource ${meta.key}: base ${base} lacks its parent parameter :${parent.param}`);
  }
  const config = { permission: meta.permission, ...(parent?.isClient ? { client: parent.param } : {}) };
  const tags = opts.tags ?? [meta.key];
  const without = new Set(opts.without ?? []);
  const unpaged = meta.listQuery.omit({ page: true, pageSize: true });
  const parentParams = z.object(parent ? { [parent.param]: idSchema } : {});
  /** The row's identity in the path: `:id`, or the key's parameter (KeyDef). */
  const rowParam = def.key?.param ?? 'id';
  const idParams = parentParams.extend({ [rowParam]: idSchema });
  const rowOf = (req: FastifyRequest) => (req.params as Record<string, number>)[rowParam];
  const { savedAs } = meta;
  const savedSchema = savedAs
    ? z.object({ [savedAs]: meta.entity, code: z.string(), message: z.string() })
    : meta.entity;
  /** The route's schema: its tags and summary beside the rest. */
  const schema = <S extends object>(name: RouteName, rest: S) => ({
    tags,
    ...(opts.summaries?.[name] ? { summary: opts.summaries[name] } : {}),
    ...rest,
  });
  /** A write's answer: the entity, or with `savedAs` the entity under its key and the message. */
  const saved = (req: FastifyRequest, row: Row, code: MessageCode) =>
    savedAs ? { [savedAs]: row, code, message: message(code, requestLanguage(req)) } : row;

  // The parent of the path is checked before the body is validated (a malformed id is left to
  // the validation: 400).
  const preValidation = async (req: FastifyRequest) => {
    if (!parent || parent.isClient) return;
    const parentId = idSchema.safeParse((req.params as Record<string, unknown>)[parent.param]);
    if (parentId.success) await assertParent(db, def, callerOf(req), parentId.data);
  };
  const routeConfig = { config, preValidation };

  /**
   * The caller and the (checked) parent id of a request: the path's, or the owner the request
   * names (`from`: its query or body; only the list, export, options and create name one).
   */
  const context = async (req: FastifyRequest, from?: 'query' | 'body') => {
    const me = callerOf(req);
    const parentId = parent
      ? (req.params as Record<string, number>)[parent.param]
      : owner && from
        ? await owner.resolve(me, req[from] as Row, from)
        : undefined;
    return { me, parentId };
  };

  return {
    app,
    def,
    opts,
    r,
    meta,
    db,
    base,
    without,
    unpaged,
    parentParams,
    idParams,
    rowParam,
    rowOf,
    savedSchema,
    schema,
    saved,
    routeConfig,
    context,
  };
}
type ResourceKit = ReturnType<typeof resourceKit>;

/** The list (paged or not), its export, the options and one row. */
function registerReads(kit: ResourceKit) {
  const {
    def,
    opts,
    r,
    meta,
    db,
    base,
    without,
    unpaged,
    parentParams,
    idParams,
    rowParam,
    rowOf,
    schema,
    routeConfig,
    context,
  } = kit;
  if (opts.unpaged) {
    r.get(
      base,
      {
        ...routeConfig,
        schema: schema('list', {
          params: parentParams,
          response: { 200: z.object({ items: z.array(meta.entity), ...meta.totals }) },
        }),
      },
      async (req) => {
        const { me, parentId } = await context(req, 'query');
        const items: Row[] = [];
        for await (const batch of allRows(db, def, me, {}, parentId)) items.push(...batch);
        const where = listConditions(def, me, {}, parentId);
        return { items, ...(await def.totals?.(db, { where, caller: me, parentId })) };
      },
    );
  } else {
    r.get(
      base,
      {
        ...routeConfig,
        schema: schema('list', {
          params: parentParams,
          querystring: meta.listQuery,
          response: { 200: meta.list },
        }),
      },
      async (req) => {
        const { me, parentId } = await context(req, 'query');
        return listRows(db, def, me, req.query as MasterListQuery, parentId);
      },
    );
  }

  if (!without.has('export')) {
    r.get(
      `${base}/export`,
      { ...routeConfig, schema: schema('export', { params: parentParams, querystring: unpaged }) },
      async (req, reply) => {
        const { me, parentId } = await context(req, 'query');
        return sendXlsx(
          req,
          reply,
          meta,
          allRows(db, def, me, req.query as Partial<MasterListQuery>, parentId),
          requestLanguage(req),
        );
      },
    );
  }

  if (!without.has('options')) {
    r.get(
      `${base}/options`,
      {
        ...routeConfig,
        schema: schema('options', {
          params: parentParams,
          querystring: unpaged,
          response: { 200: z.array(optionSchema) },
        }),
      },
      async (req) => {
        const { me, parentId } = await context(req, 'query');
        return optionRows(db, def, me, req.query as Partial<MasterListQuery>, parentId);
      },
    );
  }

  if (!without.has('get')) {
    r.get(
      `${base}/:${rowParam}`,
      { ...routeConfig, schema: schema('get', { params: idParams, response: { 200: meta.entity } }) },
      async (req) => {
        const { me, parentId } = await context(req);
        return getRow(db, def, me, rowOf(req), parentId);
      },
    );
  }
}

/** Create, update (or upsert) and delete. */
function registerWrites(kit: ResourceKit) {
  const {
    app,
    def,
    r,
    meta,
    db,
    base,
    without,
    parentParams,
    idParams,
    rowParam,
    rowOf,
    savedSchema,
    schema,
    saved,
    routeConfig,
    context,
  } = kit;
  const { savedAs } = meta;
  if (!meta.customWrite && !def.key?.upsert) {
    r.post(
      base,
      {
        ...routeConfig,
        schema: schema('create', { params: parentParams, body: meta.create, response: { 201: savedSchema } }),
      },
      async (req, reply) => {
        const { me, parentId } = await context(req, 'body');
        const row = await createRow(db, def, me, req.body as Row, parentId, app.deps);
        const code = def.savedMessage?.(row, 'create') ?? meta.messages.created;
        return reply.code(201).send(saved(req, row, code));
      },
    );
  }

  if (!meta.customWrite) {
    r.put(
      `${base}/:${rowParam}`,
      {
        ...routeConfig,
        schema: schema('update', { params: idParams, body: meta.update, response: { 200: savedSchema } }),
      },
      async (req) => {
        const { me, parentId } = await context(req);
        const body = req.body as Row;
        const { row, created } = def.key?.upsert
          ? await upsertRow(db, def, me, rowOf(req), body, parentId, app.deps)
          : { row: await updateRow(db, def, me, rowOf(req), body, parentId, app.deps), created: false };
        const code = created
          ? (def.savedMessage?.(row, 'create') ?? meta.messages.created)
          : (def.savedMessage?.(row, 'update') ?? meta.messages.updated);
        return saved(req, row, code);
      },
    );
  }

  if (without.has('delete')) return;
  r.delete(
    `${base}/:${rowParam}`,
    {
      ...routeConfig,
      schema: schema('delete', {
        params: idParams,
        response: { 200: savedAs && !meta.deleteAnswersId ? messageSchema : deletedSchema },
      }),
    },
    async (req) => {
      const { me, parentId } = await context(req);
      const id = await deleteRow(db, def, me, rowOf(req), parentId, app.deps);
      const code = meta.messages.deleted;
      const answer = { code, message: message(code, requestLanguage(req)) };
      return savedAs && !meta.deleteAnswersId ? answer : { id, ...answer };
    },
  );
}
