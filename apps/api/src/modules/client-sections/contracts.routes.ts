import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contractSavedSchema, contractTerminateSchema, idSchema, message } from '@kulu/shared';
import { registerResource } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import { getRow } from '../../lib/resource/resource.service.js';
import { contractsDef, terminateContract } from './contracts.service.js';
import { callerOf } from '../../plugins/access.js';
import { declareRoutes } from '../../lib/routes.js';

/**
 * Contract management of a client (provider side: `clients.manage`, limited by the Scope): the
 * declared resource (`contractsDef`: list, detail, create, update) and the terminate workflow.
 */
export async function contractsRoutes(app: FastifyInstance) {
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage', client: 'clientId' } as const;
  const tags = ['client contracts'];
  const route = declareRoutes(app, tags);
  const contractParams = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/contracts';

  // The client of the path is checked by the access plugin (`config.client`), and the contract here,
  // before the body is validated, so another client's ids answer 404 whatever the body.
  app.addHook('preValidation', async (req) => {
    const params = req.params as Record<string, unknown>;
    const clientId = idSchema.safeParse(params.clientId);
    if (!clientId.success) return;
    const id = idSchema.safeParse(params.id);
    if (id.success) await getRow(db, contractsDef, callerOf(req), id.data, clientId.data);
  });

  registerResource(app, contractsDef, {
    base,
    tags,
    unpaged: true,
    without: ['export', 'options', 'delete'],
    summaries: {
      list: "A client's contracts, oldest first",
      get: 'A contract',
      create: 'Add a contract (active) or save it as a draft; costs computed from the billing plan',
      update: 'Update a draft or active contract (activate a draft, make an active one inactive)',
    },
  });

  route.post(
    `${base}/:id/terminate`,
    config,
    {
      summary: 'Terminate a contract on a day between its start and end',
      params: contractParams,
      body: contractTerminateSchema,
      response: { 200: contractSavedSchema },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const contract = await terminateContract(db, callerOf(req), clientId, id, req.body, deps.now());
      const code = 'contractTerminated' as const;
      return { contract, code, message: message(code, requestLanguage(req)) };
    },
  );
}
