import type { Deps } from '../../types.js';
import { PhaseClock, type PhaseLog } from '../../lib/phases.js';
import { QUEUE, type JobHandler } from '../../lib/queue.js';
import { sweeper } from '../../lib/sweep.js';
import { dispatchQueuedRuns, runQueuedOptimization, type OptimizeClientJob } from './optimize.service.js';

/** How often each instance sends jobs for runs queued without one (plan changes: the outbox). */
export const OPTIMIZE_SWEEP_SECONDS = 15;

const optimizeSweep = sweeper(dispatchQueuedRuns, OPTIMIZE_SWEEP_SECONDS);

/**
 * optimize-client: one client's results recomputed and swapped (modules/optimization). The queue's
 * `stately` policy and the client's singletonKey keep one job waiting and one running per client.
 */
export function optimizeClientHandler(deps: Deps, log?: PhaseLog): JobHandler<OptimizeClientJob> {
  return async (job) => {
    const clock = log ? new PhaseClock() : null;
    await runQueuedOptimization(deps, job.data.clientId);
    if (clock && log) {
      clock.lap('run');
      if (job.queuedMs != null) clock.add('queued', job.queuedMs);
      log(
        { job: 'optimize-client', clientId: job.data.clientId, ...clock.fields() },
        'optimize-client phases',
      );
    }
  };
}

/** Starts this instance's worker and its sweep of runs queued without a job. */
export async function startOptimizeWorker(deps: Deps, log?: PhaseLog): Promise<void> {
  await deps.jobs.work<OptimizeClientJob>(QUEUE.optimizeClient, optimizeClientHandler(deps, log));
  await dispatchQueuedRuns(deps);
  optimizeSweep.start(deps);
}

export function stopOptimizeSweep(deps: Deps): void {
  optimizeSweep.stop(deps);
}
