import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, message, optionSchema, type MasterListQuery } from '@kulu/shared';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { sendXlsx } from './export.js';
import {
  allRows,
  assertParent,
  createRow,
  deleteRow,
  getRow,
  listRows,
  optionRows,
  updateRow,
  type Caller,
  type ResourceDef,
  type Row,
} from './resource.service.js';

/** The caller of a request: its user and the scope the access plugin built (req.scope). */
export const callerOf = (req: FastifyRequest): Caller => ({ user: currentUser(req), scope: req.scope });

export const deletedSchema = z.object({ id: z.number().int(), code: z.string(), message: z.string() });

export interface RegisterOptions {
  /**
   * Where the resource lives, e.g. `/api/masters/operators` or, nested under its parent,
   * `/api/clients/:clientId/sub-companies` (the parameter is the resource's `parent.param`).
   */
  base: string;
  /** OpenAPI tags (default: the resource key). */
  tags?: string[];
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
 * Every route requires the resource's permission. A nested resource's parent id is validated as
 * an id and must be a parent row in the caller's scope (else 404) before anything else runs.
 */
export function registerResource(app: FastifyInstance, def: ResourceDef, opts: RegisterOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { meta, parent } = def;
  const db = app.deps.database.db;
  const { base } = opts;
  if (parent && !base.includes(`/:${parent.param}/`)) {
    throw new Error(`resource ${meta.key}: base ${base} lacks its parent parameter :${parent.param}`);
  }
  const config = { permission: meta.permission };
  const tags = opts.tags ?? [meta.key];
  const unpaged = meta.listQuery.omit({ page: true, pageSize: true });
  const parentParams = z.object(parent ? { [parent.param]: idSchema } : {});
  const idParams = parentParams.extend({ id: idSchema });

  /** The caller and the checked parent id of a request. */
  const context = async (req: FastifyRequest) => {
    const me = callerOf(req);
    if (!parent) return { me, parentId: undefined };
    const parentId = (req.params as Record<string, number>)[parent.param];
    await assertParent(db, def, me, parentId);
    return { me, parentId };
  };

  r.get(
    base,
    {
      config,
      schema: { tags, params: parentParams, querystring: meta.listQuery, response: { 200: meta.list } },
    },
    async (req) => {
      const { me, parentId } = await context(req);
      return listRows(db, def, me, req.query as MasterListQuery, parentId);
    },
  );

  r.get(
    `${base}/export`,
    { config, schema: { tags, params: parentParams, querystring: unpaged } },
    async (req, reply) => {
      const { me, parentId } = await context(req);
      return sendXlsx(
        req,
        reply,
        meta,
        allRows(db, def, me, req.query as Partial<MasterListQuery>, parentId),
        requestLanguage(req),
      );
    },
  );

  r.get(
    `${base}/options`,
    {
      config,
      schema: { tags, params: parentParams, querystring: unpaged, response: { 200: z.array(optionSchema) } },
    },
    async (req) => {
      const { me, parentId } = await context(req);
      return optionRows(db, def, me, req.query as Partial<MasterListQuery>, parentId);
    },
  );

  r.get(
    `${base}/:id`,
    { config, schema: { tags, params: idParams, response: { 200: meta.entity } } },
    async (req) => {
      const { me, parentId } = await context(req);
      return getRow(db, def, me, req.params.id, parentId);
    },
  );

  if (!meta.customWrite) {
    r.post(
      base,
      { config, schema: { tags, params: parentParams, body: meta.create, response: { 201: meta.entity } } },
      async (req, reply) => {
        const { me, parentId } = await context(req);
        return reply.code(201).send(await createRow(db, def, me, req.body as Row, parentId));
      },
    );

    r.put(
      `${base}/:id`,
      { config, schema: { tags, params: idParams, body: meta.update, response: { 200: meta.entity } } },
      async (req) => {
        const { me, parentId } = await context(req);
        return updateRow(db, def, me, req.params.id, req.body as Row, parentId);
      },
    );
  }

  r.delete(
    `${base}/:id`,
    { config, schema: { tags, params: idParams, response: { 200: deletedSchema } } },
    async (req) => {
      const { me, parentId } = await context(req);
      await deleteRow(db, def, me, req.params.id, parentId);
      const code = meta.messages.deleted;
      return { id: req.params.id, code, message: message(code, requestLanguage(req)) };
    },
  );
}
