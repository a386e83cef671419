#!/usr/bin/env node
// npm start: builds the API and the web app when their sources changed since their last build
// (scripts/build.mjs), then runs the compiled server with plain node: no TypeScript at run time.
// `npm start` execs this script already under the server's memory settings (package.json, checked
// against server-runtime.mjs by build.test.ts), so the script then becomes the server: one Node
// process. Started another way (`node scripts/start.mjs`), it starts the server as its child with them.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SERVER_JS, staleTargets } from './build.mjs';
import { hasServerRuntime, SERVER_ENV, SERVER_NODE_FLAGS } from './server-runtime.mjs';

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
const serverArgs = args.filter((a) => a !== '--no-web');

if (hasServerRuntime()) {
  process.argv = [process.argv[0], SERVER_JS, ...serverArgs];
  await import(pathToFileURL(SERVER_JS).href);
} else {
  const server = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_JS, ...serverArgs], {
    stdio: 'inherit',
    env: { ...SERVER_ENV, ...process.env },
  });
  // The server shuts down gracefully on these; a second one from the terminal is harmless.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => server.kill(signal));
  server.on('exit', (code, signal) =>
    process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)),
  );
}
