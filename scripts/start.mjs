#!/usr/bin/env node
// npm start: builds the API and the web app when their sources changed since their last build
// (scripts/build.mjs), then runs the compiled server with plain node: no TypeScript at run time.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, SERVER_JS, staleTargets } from './build.mjs';
import { SERVER_ENV, SERVER_NODE_FLAGS } from './server-runtime.mjs';

export { SERVER_ENV, SERVER_NODE_FLAGS };

// `--no-web`: the API only (no web build; the server then serves no web app unless one is built).
const args = process.argv.slice(2);
const noWeb = args.includes('--no-web');
const stale = staleTargets(noWeb ? ['api'] : undefined);
if (stale.length) {
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), ...stale], {
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, SERVER_JS, ...args.filter((a) => a !== '--no-web')],
  {
    stdio: 'inherit',
    env: { ...SERVER_ENV, ...process.env },
  },
);
// The server shuts down gracefully on these; a second one from the terminal is harmless.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) =>
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)),
);
