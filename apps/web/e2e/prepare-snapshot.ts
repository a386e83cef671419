/**
 * Prepares the browser tests' snapshot: a DATA_DIR in which the built server (started as `npm start`
 * starts it) has made its first start's demo import, then stopped. `global-setup.ts` starts the
 * suite's server on a copy of it when E2E_SNAPSHOT names it, instead of importing the demo again;
 * `.ci/run` prepares it while the API suite runs on PostgreSQL (docs/decisions/0022).
 *
 * Usage: npx tsx apps/web/e2e/prepare-snapshot.ts DIR   (DIR must not exist or be empty; run `npm run build` first)
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SNAPSHOT_MARKER, startServer } from './server';

const dir = process.argv[2];
if (!dir) throw new Error('usage: prepare-snapshot.ts DIR');
const dataDir = resolve(dir);
if (existsSync(dataDir) && readdirSync(dataDir).length > 0) throw new Error(`${dataDir} is not empty`);
mkdirSync(dataDir, { recursive: true });

const began = Date.now();
const server = await startServer(dataDir);
// Copied only after a clean shutdown: a killed server could leave its database mid-write.
if (!(await server.stop(120_000))) throw new Error('the server did not stop within 120 s');
writeFileSync(join(dataDir, SNAPSHOT_MARKER), `${new Date().toISOString()}\n`);
console.log(`e2e snapshot: demo imported in ${((Date.now() - began) / 1000).toFixed(1)} s into ${dataDir}`);
