import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  clientBillingSavedSchema,
  clientBillingSchema,
  clientBillingUpdateSchema,
  idSchema,
  message,
} from '@kulu/shared';
import { requestLanguage } from '../../plugins/errors.js';
import { getBilling, updateBilling } from './billing.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';

/** Billing management of a client (provider side: `clients.manage`, limited by the Scope). */
export async function billingRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage', client: 'clientId' } as const;
  const route = declareRoutes(app, ['client billing']);
  const params = z.object({ clientId: idSchema });
  const url = '/api/clients/:clientId/billing';

  // Another client's id answers 404 whatever the body: `config.client`, checked by the access plugin.
  route.get(
    url,
    config,
    {
      summary: "The client's billing plan and its fees, and the plans to choose from",
      params,
      response: { 200: clientBillingSchema },
    },
    async (req) => getBilling(db, req.params.clientId),
  );

  route.put(
    url,
    config,
    {
      summary: 'Put the client on a billing plan (null: none)',
      params,
      body: clientBillingUpdateSchema,
      response: { 200: clientBillingSavedSchema },
    },
    async (req) => {
      const billing = await updateBilling(db, callerOf(req), req.params.clientId, req.body, deps.now());
      const code = 'clientBillingUpdated' as const;
      return { billing, code, message: message(code, requestLanguage(req)) };
    },
  );
}
