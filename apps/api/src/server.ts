import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { bootstrap } from './db/seed/bootstrap.js';
import { startJobs, stopJobs } from './jobs/index.js';
import { startDemoPortal } from './modules/automation/demo-portal.js';
import { DEMO_AUTOMATION } from './db/seed/demo-invoices.js';
import type { SimulatedPortal } from './modules/automation/simulated-portal.js';

/** Entry: config -> database -> migrations -> first admin / demo data -> listen -> jobs. */
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.dataDir });
  await database.migrate();
  const deps = createDeps(config, database);
  const seeded = await bootstrap(deps);
  const app = await buildApp(deps);
  if (seeded.length) app.log.info(`bootstrap: ${seeded.join('; ')}`);

  let portal: SimulatedPortal | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await stopJobs(deps);
    await portal?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Jobs start once the server answers (the queue's schema and the demo invoices must not delay
  // /api/health); a request that enqueues before this starts the queue itself.
  try {
    // Demo mode: the SIMULATED operator portal of the demo client on automated upload (README).
    portal = await startDemoPortal(deps);
    await startJobs(deps, { demoSkip: portal ? [DEMO_AUTOMATION] : [] });
  } catch (e) {
    app.log.error({ err: e }, 'the job queue could not start');
    await shutdown('job queue failure');
  }
}

void main();
