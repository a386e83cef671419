import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  idSchema,
  message,
  moneyDeletedSchema,
  paymentInputSchema,
  paymentListQuerySchema,
  paymentListSchema,
  paymentSavedSchema,
  paymentSchema,
} from '@kulu/shared';
import { callerOf } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import { createPayment, deletePayment, getPayment, listPayments, updatePayment } from './payments.service.js';

/** Client payments (provider side: `clients.manage`, limited by the Scope). */
export async function paymentsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage' } as const;
  const tags = ['client payments'];
  const clientParams = z.object({ clientId: idSchema });
  const paymentParams = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/payments';

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
        summary: "A page of the client's payments (newest first) and their total amount",
        params: clientParams,
        querystring: paymentListQuerySchema,
        response: { 200: paymentListSchema },
      },
    },
    async (req) => listPayments(db, callerOf(req), req.params.clientId, req.query),
  );

  r.get(
    `${base}/:id`,
    {
      config,
      schema: { tags, summary: 'A payment', params: paymentParams, response: { 200: paymentSchema } },
    },
    async (req) => getPayment(db, callerOf(req), req.params.clientId, req.params.id),
  );

  r.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add a payment: amount greater than 0, date not in the future',
        params: clientParams,
        body: paymentInputSchema,
        response: { 201: paymentSavedSchema },
      },
    },
    async (req, reply) => {
      const payment = await createPayment(db, callerOf(req), req.params.clientId, req.body, deps.now());
      const code = 'paymentAdded' as const;
      return reply.code(201).send({ payment, code, message: message(code, requestLanguage(req)) });
    },
  );

  r.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update a payment (the same rules)',
        params: paymentParams,
        body: paymentInputSchema,
        response: { 200: paymentSavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const payment = await updatePayment(db, callerOf(req), clientId, id, req.body, deps.now());
      const code = 'paymentUpdated' as const;
      return { payment, code, message: message(code, requestLanguage(req)) };
    },
  );

  r.delete(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a payment',
        params: paymentParams,
        response: { 200: moneyDeletedSchema },
      },
    },
    async (req) => {
      await deletePayment(db, callerOf(req), req.params.clientId, req.params.id);
      const code = 'paymentDeleted' as const;
      return { code, message: message(code, requestLanguage(req)) };
    },
  );
}
