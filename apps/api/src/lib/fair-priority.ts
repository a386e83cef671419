import type { Deps } from '../types.js';
import type { QueueName } from './queue.js';

/**
 * The priority of a job about one invoice that is fair between clients (decision 0019): minus the
 * number of the client's jobs of that queue not yet finished (other than this invoice's), so a
 * client's first job goes before any client's second, its second before any third, whichever
 * instance works them. The queue must have started (its tables exist).
 */
export async function fairPriority(deps: Deps, queue: QueueName, invoiceId: number): Promise<number> {
  return -(await deps.jobs.clientJobsAhead(queue, invoiceId));
}
