import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationsCurrent } from '../../db/client.js';

/**
 * For load balancers: the database answers and the migrations are current. A demo install also
 * says whether its first start's demo import is done (`demo`), for whoever waits to show it.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.string(),
            demo: z
              .enum(['importing', 'ready'])
              .optional()
              .describe(
                "Demo installs only (DEMO_DATA): 'importing' while the first start imports the demo invoices, " +
                  "'ready' once every one is imported and its optimization and alerts computed.",
              ),
          }),
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
      const { config, demoImport } = app.deps;
      return {
        status: 'ok' as const,
        database: app.deps.database.kind,
        ...(config.DEMO_DATA ? { demo: demoImport?.() ?? ('importing' as const) } : {}),
      };
    },
  );
}
