import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 right now: the system picks one for a listener that is closed at
 * once. What starts a server of its own for a test or a benchmark (apps/api/src/build.test.ts,
 * apps/web/e2e/server.ts, scripts/bench-lib.ts) shares it; it imports nothing of the apps.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
