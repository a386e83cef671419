// How the server process runs (npm start), also used by the benchmarks that measure its memory.
/**
 * Memory settings of the server process (measured in docs/decisions/0004-scope-resources-runtime.md):
 * a smaller young generation of the V8 heap, and glibc returning freed blocks to the system (and
 * keeping fewer per-thread arenas) instead of holding what the embedded database's first start
 * allocated for the whole process lifetime.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=2'];
export const SERVER_ENV = {
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_ARENA_MAX: '2',
};
