import type { Deps } from '../types.js';

/**
 * A periodic sweep of each started instance (one per Deps): `start` runs `task` every `seconds`
 * while the instance's queue is started (a failed pass waits for the next one) and replaces the
 * instance's earlier sweep; `stop` ends it.
 */
export function sweeper(task: (deps: Deps) => Promise<unknown>, seconds: number) {
  const timers = new WeakMap<Deps, NodeJS.Timeout>();
  const stop = (deps: Deps) => {
    clearInterval(timers.get(deps));
    timers.delete(deps);
  };
  const start = (deps: Deps) => {
    const timer = setInterval(() => {
      if (deps.jobs.started) task(deps).catch(() => {});
    }, seconds * 1000);
    timer.unref();
    stop(deps);
    timers.set(deps, timer);
  };
  return { start, stop };
}
