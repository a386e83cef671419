import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { openEmbedded } from './db/embedded.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { bootstrap } from './db/seed/bootstrap.js';
import { startJobs, stopJobs } from './jobs/index.js';
import type { DemoRun } from './demo/index.js';

/** Entry: config -> database -> migrations -> first admin / demo data -> listen -> jobs. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  // Without DATABASE_URL: the embedded PostgreSQL of DATA_DIR, a child process of this one.
  const { database, server: embedded } = config.DATABASE_URL
    ? { database: await openDatabase({ url: config.DATABASE_URL }), server: null }
    : await openEmbedded(config.dataDir, (line) => console.log(line)).catch((e: Error) => {
        console.error(e.message);
        process.exit(1);
      });
  await database.migrate();
  const deps = createDeps(config, database);
  // Demo mode only: the demo organisation, invoices and simulated portal (never loaded otherwise).
  const demo = config.DEMO_DATA ? await import('./demo/index.js') : null;
  const seeded = await bootstrap(deps, demo?.demoSeed);
  const app = await buildApp(deps);
  if (seeded.length) app.log.info(`bootstrap: ${seeded.join('; ')}`);

  let demoRun: DemoRun | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await stopJobs(deps);
    await demoRun?.close();
    await database.close();
    await embedded?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Jobs start once the server answers (the queue's schema and the demo invoices must not delay
  // /api/health); a request that enqueues before this starts the queue itself.
  try {
    // Demo mode: the SIMULATED operator portal of the demo client on automated upload (README)
    // and the demo invoices, through the job queue's extension hook.
    demoRun = demo ? await demo.startDemo(deps, { log: (msg) => app.log.info(msg) }) : null;
    // GET /api/health answers where the first start's demo import stands (`demo`).
    if (demoRun) deps.demoImport = demoRun.importState;
    await startJobs(deps, {
      extensions: demoRun ? [demoRun.jobs] : [],
      // Where each parse and optimize job's time went, at LOG_LEVEL=debug (lib/phases.ts).
      ...(['debug', 'trace'].includes(config.LOG_LEVEL)
        ? { log: (fields: Record<string, unknown>, msg: string) => app.log.debug(fields, msg) }
        : {}),
    });
  } catch (e) {
    app.log.error({ err: e }, 'the job queue could not start');
    await shutdown('job queue failure');
  }
}

void main();
