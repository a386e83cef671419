import { count, eq } from 'drizzle-orm';
import { invoices } from '../db/schema/index.js';
import { QUEUE } from '../lib/queue.js';
import type { DemoImportState, Deps } from '../types.js';

/**
 * The work a demo invoice goes through, upstream first: its job (or the simulated portal's fetch)
 * uploads it and sends its parse job, the parse job imports it and sends the client's optimization
 * and the invoice's alert rules before it completes. Read in this order, a queue found empty stays
 * empty: nothing downstream sends work upstream.
 */
export const IMPORT_QUEUES = [
  QUEUE.demoInvoices,
  QUEUE.fetchInvoices,
  QUEUE.parseInvoice,
  QUEUE.optimizeClient,
  QUEUE.evaluateAlerts,
] as const;

/** Every demo invoice's work is done: no job of the import queued or running, no invoice in progress. */
export async function importDone(deps: Deps): Promise<boolean> {
  for (const queue of IMPORT_QUEUES) if ((await deps.jobs.pending(queue)) > 0) return false;
  const [{ busy }] = await deps.database.db
    .select({ busy: count() })
    .from(invoices)
    .where(eq(invoices.uploadState, 'in_progress'));
  return busy === 0;
}

export interface DemoImportWatch {
  state(): DemoImportState;
  stop(): void;
}

/**
 * Watches the first start's demo import once its jobs are enqueued (a later start finds it done at
 * once): `importing` until every demo invoice is imported and its optimization and alerts are
 * computed, then `ready` for good (later uploads are a user's, not the demo's). GET /api/health
 * answers it as `demo`, and the server logs one line when it turns ready.
 */
export function watchDemoImport(deps: Deps, log: (msg: string) => void, intervalMs = 250): DemoImportWatch {
  let state: DemoImportState = 'importing';
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const began = Date.now();
  const check = async () => {
    timer = null;
    try {
      if (await importDone(deps)) {
        state = 'ready';
        const rows = await deps.database.db
          .select({ state: invoices.uploadState, n: count() })
          .from(invoices)
          .groupBy(invoices.uploadState);
        const states = rows.map((r) => `${r.n} ${r.state}`).join(', ') || 'no invoices';
        log(`demo: import ready after ${((Date.now() - began) / 1000).toFixed(1)} s (invoices: ${states})`);
        return;
      }
    } catch {
      // The queue stopped (shutdown), or the database did not answer this once: asked again below.
    }
    if (stopped || !deps.jobs.started) return;
    timer = setTimeout(() => void check(), intervalMs);
    timer.unref();
  };
  void check();
  return {
    state: () => state,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
