import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idSchema,
  message,
  moneyDeletedSchema,
  supportHoursInputSchema,
  supportHoursListQuerySchema,
  supportHoursListSchema,
  supportHoursSavedSchema,
  supportHoursSchema,
} from '@kulu/shared';
import { callerOf } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import {
  createSupportHours,
  deleteSupportHours,
  getSupportHours,
  listSupportHours,
  updateSupportHours,
} from './support-hours.service.js';

/** On-demand support hours of a client (provider side: `clients.manage`, limited by the Scope). */
export async function supportHoursRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const tags = ['client on-demand support'];
  const clientParams = z.object({ clientId: idSchema });
  const entryParams = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/support-hours';

  // The client of the path is checked through the Scope before the body is validated, so another
  // client answers 404 whatever the body. The entry's id is checked after validation (the answer
  // to a bad body is the same 400 for every id, so ids can't be probed; a valid one meets a 404).
  app.addHook('preValidation', async (req) => {
    const clientId = idSchema.safeParse((req.params as Record<string, unknown>).clientId);
    if (clientId.success) await req.scope.assertClient(clientId.data);
  });

  r.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: "A page of the client's support entries (newest first), this month's hours and cost",
        params: clientParams,
        querystring: supportHoursListQuerySchema,
        response: { 200: supportHoursListSchema },
      },
    },
    async (req) => listSupportHours(db, callerOf(req), req.params.clientId, req.query, deps.now()),
  );

  r.get(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'A support entry',
        params: entryParams,
        response: { 200: supportHoursSchema },
      },
    },
    async (req) => getSupportHours(db, callerOf(req), req.params.clientId, req.params.id),
  );

  r.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add support hours: hours greater than 0, a day of the current month up to today',
        params: clientParams,
        body: supportHoursInputSchema,
        response: { 201: supportHoursSavedSchema },
      },
    },
    async (req, reply) => {
      const support = await createSupportHours(db, callerOf(req), req.params.clientId, req.body, deps.now());
      const code = 'supportHoursAdded' as const;
      return reply.code(201).send({ support, code, message: message(code, requestLanguage(req)) });
    },
  );

  r.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update support hours (the same rules)',
        params: entryParams,
        body: supportHoursInputSchema,
        response: { 200: supportHoursSavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const support = await updateSupportHours(db, callerOf(req), clientId, id, req.body, deps.now());
      const code = 'supportHoursUpdated' as const;
      return { support, code, message: message(code, requestLanguage(req)) };
    },
  );

  r.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete support hours',
        params: entryParams,
        response: { 200: moneyDeletedSchema },
      },
    },
    async (req) => {
      await deleteSupportHours(db, callerOf(req), req.params.clientId, req.params.id);
      const code = 'supportHoursDeleted' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );
}
