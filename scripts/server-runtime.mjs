// How the server process runs (npm start), also used by the benchmarks that measure its memory.
/**
 * Memory settings of the server process (measured in docs/decisions/0004-scope-resources-runtime.md):
 * glibc returning freed blocks to the system (and keeping fewer per-thread arenas) instead of holding
 * what a large import allocated for the whole process lifetime. The young generation of the V8 heap
 * was 2 MB while PGlite lived in this process; with the database in its own process, 16 MB: with
 * 2 MB the scavenger ran constantly under load (issue 13: +20 % req/s on the invoice list,
 * docs/decisions/0016).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=16'];
export const SERVER_ENV = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_ARENA_MAX: '2',
};

/**
 * True when this process was started with the server's settings (each variable set, whatever its
 * value: one set by the user wins, as in the child's environment; each flag given), so it can run
 * the server itself.
 */
export function hasServerRuntime() {
  return (
    Object.keys(SERVER_ENV).every((k) => process.env[k] !== undefined) &&
    SERVER_NODE_FLAGS.every((f) => process.execArgv.includes(f))
  );
}
