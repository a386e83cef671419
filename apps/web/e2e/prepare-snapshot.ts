/**
 * Prepares the browser tests' snapshot: a DATA_DIR in which the built server (started as `npm start`
 * starts it) has made its first start's demo import, then stopped. `global-setup.ts` starts the
 * suite's server on a copy of it when E2E_SNAPSHOT names it, instead of importing the demo again;
 * `.ci/run` prepares it while the API suite runs on PostgreSQL (docs/decisions/0022).
 *
 * Usage: npx tsx apps/web/e2e/prepare-snapshot.ts DIR   (DIR must not exist or be empty; run `npm run build` first)
 */
import { prepareSnapshot } from './server';

const dir = process.argv[2];
if (!dir) throw new Error('usage: prepare-snapshot.ts DIR');
const seconds = await prepareSnapshot(dir);
console.log(`e2e snapshot: demo imported in ${seconds.toFixed(1)} s into ${dir}`);
