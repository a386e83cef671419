import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { message, optionSchema, type MasterListQuery } from '@kulu/shared';
import { currentUser } from '../../plugins/access.js';
import { requestLanguage } from '../../plugins/errors.js';
import { sendXlsx } from './export.js';
import {
  allRows,
  createRow,
  deleteRow,
  getRow,
  listRows,
  optionRows,
  updateRow,
  type ResourceDef,
  type Row,
} from './resource.service.js';

export const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
export const deletedSchema = z.object({ id: z.number().int(), code: z.string(), message: z.string() });

/**
 * One master resource, declared once (packages/shared + its ResourceDef), becomes:
 *   GET    /api/masters/<path>            list: page, pageSize ≤ 200, sort, order, q, filters
 *   GET    /api/masters/<path>/export     the same list (no paging) as .xlsx
 *   GET    /api/masters/<path>/options    [{ id, name }] for the forms' selects (filters apply)
 *   GET    /api/masters/<path>/:id
 *   POST   /api/masters/<path>            (unless the resource writes by a special route)
 *   PUT    /api/masters/<path>/:id        full replacement, validated like POST
 *   DELETE /api/masters/<path>/:id        409 when the row is in use
 * Every route requires the resource's `masters.*` permission.
 */
export function registerResource(app: FastifyInstance, def: ResourceDef) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { meta } = def;
  const db = app.deps.database.db;
  const base = `/api/masters/${meta.path}`;
  const config = { permission: meta.permission };
  const tags = ['masters'];
  const unpaged = meta.listQuery.omit({ page: true, pageSize: true });

  r.get(
    base,
    { config, schema: { tags, querystring: meta.listQuery, response: { 200: meta.list } } },
    async (req) => listRows(db, def, currentUser(req), req.query as MasterListQuery),
  );

  r.get(`${base}/export`, { config, schema: { tags, querystring: unpaged } }, async (req, reply) =>
    sendXlsx(
      req,
      reply,
      meta,
      allRows(db, def, currentUser(req), req.query as Partial<MasterListQuery>),
      requestLanguage(req),
    ),
  );

  r.get(
    `${base}/options`,
    { config, schema: { tags, querystring: unpaged, response: { 200: z.array(optionSchema) } } },
    async (req) => optionRows(db, def, currentUser(req), req.query as Partial<MasterListQuery>),
  );

  r.get(
    `${base}/:id`,
    { config, schema: { tags, params: idParams, response: { 200: meta.entity } } },
    async (req) => getRow(db, def, currentUser(req), req.params.id),
  );

  if (!meta.customWrite) {
    r.post(
      base,
      { config, schema: { tags, body: meta.create, response: { 201: meta.entity } } },
      async (req, reply) => reply.code(201).send(await createRow(db, def, currentUser(req), req.body as Row)),
    );

    r.put(
      `${base}/:id`,
      { config, schema: { tags, params: idParams, body: meta.update, response: { 200: meta.entity } } },
      async (req) => updateRow(db, def, currentUser(req), req.params.id, req.body as Row),
    );
  }

  r.delete(
    `${base}/:id`,
    { config, schema: { tags, params: idParams, response: { 200: deletedSchema } } },
    async (req) => {
      await deleteRow(db, def, currentUser(req), req.params.id);
      const code = meta.messages.deleted;
      return { id: req.params.id, code, message: message(code, requestLanguage(req)) };
    },
  );
}
