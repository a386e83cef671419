import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationsCurrent } from '../../db/client.js';

/** For load balancers: the database answers and the migrations are current. */
export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        response: {
          200: z.object({ status: z.literal('ok'), database: z.string() }),
          503: z.object({ status: z.literal('unavailable'), reason: z.string() }),
        },
      },
    },
    async (_req, reply) => {
      try {
        await app.deps.database.executeSql('select 1', []);
      } catch {
        return reply.code(503).send({ status: 'unavailable', reason: 'database' });
      }
      if (!(await migrationsCurrent(app.deps.database))) {
        return reply.code(503).send({ status: 'unavailable', reason: 'migrations' });
      }
      return { status: 'ok' as const, database: app.deps.database.kind };
    },
  );
}
