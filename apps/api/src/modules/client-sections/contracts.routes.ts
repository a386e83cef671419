import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  contractCreateSchema,
  contractListSchema,
  contractSavedSchema,
  contractSchema,
  contractTerminateSchema,
  contractUpdateSchema,
  idSchema,
  message,
} from '@kulu/shared';
import { callerOf } from '../../lib/resource/resource.routes.js';
import { requestLanguage } from '../../plugins/errors.js';
import {
  createContract,
  getContract,
  listContracts,
  terminateContract,
  updateContract,
} from './contracts.service.js';

/** Contract management of a client (provider side: `clients.manage`, limited by the Scope). */
export async function contractsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { deps } = app;
  const { db } = deps.database;
  const config = { permission: 'clients.manage', client: 'clientId' } as const;
  const tags = ['client contracts'];
  const clientParams = z.object({ clientId: idSchema });
  const contractParams = z.object({ clientId: idSchema, id: idSchema });
  const base = '/api/clients/:clientId/contracts';

  // The client of the path is checked by the access plugin (`config.client`), and the contract here,
  // before the body is validated, so another client's ids answer 404 whatever the body.
  app.addHook('preValidation', async (req) => {
    const params = req.params as Record<string, unknown>;
    const clientId = idSchema.safeParse(params.clientId);
    if (!clientId.success) return;
    const id = idSchema.safeParse(params.id);
    if (id.success) await getContract(db, callerOf(req), clientId.data, id.data);
  });

  r.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: "A client's contracts, oldest first",
        params: clientParams,
        response: { 200: contractListSchema },
      },
    },
    async (req) => ({ items: await listContracts(db, callerOf(req), req.params.clientId) }),
  );

  r.get(
    `${base}/:id`,
    {
      config,
      schema: { tags, summary: 'A contract', params: contractParams, response: { 200: contractSchema } },
    },
    async (req) => getContract(db, callerOf(req), req.params.clientId, req.params.id),
  );

  r.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: 'Add a contract (active) or save it as a draft; costs computed from the billing plan',
        params: clientParams,
        body: contractCreateSchema,
        response: { 201: contractSavedSchema },
      },
    },
    async (req, reply) => {
      const contract = await createContract(db, callerOf(req), req.params.clientId, req.body, deps.now());
      const code = contract.status === 'draft' ? 'contractDrafted' : 'contractAdded';
      return reply.code(201).send({ contract, code, message: message(code, requestLanguage(req)) });
    },
  );

  r.put(
    `${base}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Update a draft or active contract (activate a draft, make an active one inactive)',
        params: contractParams,
        body: contractUpdateSchema,
        response: { 200: contractSavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const contract = await updateContract(db, callerOf(req), clientId, id, req.body, deps.now());
      const code = contract.status === 'draft' ? 'contractDrafted' : 'contractUpdated';
      return { contract, code, message: message(code, requestLanguage(req)) };
    },
  );

  r.post(
    `${base}/:id/terminate`,
    {
      config,
      schema: {
        tags,
        summary: 'Terminate a contract on a day between its start and end',
        params: contractParams,
        body: contractTerminateSchema,
        response: { 200: contractSavedSchema },
      },
    },
    async (req) => {
      const { clientId, id } = req.params;
      const contract = await terminateContract(db, callerOf(req), clientId, id, req.body, deps.now());
      const code = 'contractTerminated' as const;
      return { contract, code, message: message(code, requestLanguage(req)) };
    },
  );
}
