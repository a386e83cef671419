import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { createDeps } from './deps.js';
import { buildApp } from './app.js';
import { bootstrap } from './db/seed/bootstrap.js';

/** Entry: config -> database -> migrations -> first admin / demo data -> listen. */
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

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: shutting down`);
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
}

void main();
