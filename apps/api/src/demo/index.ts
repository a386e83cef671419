/**
 * Demo mode (DEMO_DATA), the one entry point: server.ts imports this module only when the switch
 * is on, and the test helpers import it to seed the demo organisation. Production modules never
 * import anything under demo/; they offer hooks instead (bootstrap's `demo` seed, startJobs'
 * `extensions`). What lives here: the demo organisation and its logins (data.ts), 12 months of
 * generated invoices uploaded through the real path (invoices.ts), and a SIMULATED operator portal
 * for the demo client on automated upload (portal.ts, simulated-portal.ts).
 */
import type { DemoSeed } from '../db/seed/bootstrap.js';
import type { JobsExtension } from '../jobs/index.js';
import { QUEUE } from '../lib/queue.js';
import type { DemoImportState, Deps } from '../types.js';
import { assignDemoConsultant } from './consultant.js';
import { DEMO_PASSWORD, loadDemoData } from './data.js';
import { watchDemoImport, type DemoImportWatch } from './import-state.js';
import { DEMO_AUTOMATION, demoInvoiceHandler, enqueueDemoInvoices, type DemoInvoiceJob } from './invoices.js';
import { startDemoPortal } from './portal.js';

export { DEMO_PASSWORD } from './data.js';

/** The first provider admin of a demo install and the demo organisation, for bootstrap. */
export const demoSeed: DemoSeed = {
  admin: { email: 'admin@kulu.fi', password: DEMO_PASSWORD, fullName: 'Aino Kulu' },
  load: async (deps) => {
    await loadDemoData(deps);
    await assignDemoConsultant(deps);
  },
};

export interface DemoRun {
  /** Registers the demo-invoices worker and, on a demo install's first start, enqueues them. */
  jobs: JobsExtension;
  /**
   * Where the first start's import stands (import-state.ts): `importing` until its jobs are enqueued
   * and every demo invoice is imported, its optimization and alerts computed; then `ready`.
   */
  importState(): DemoImportState;
  /** Stops the simulated portal and the import's watch. */
  close(): Promise<void>;
}

/**
 * Starts the demo's running parts: the simulated portal of the demo client on automated upload
 * (its invoices then come from there, not from the demo-invoices queue) and the demo-invoices
 * worker, which startJobs runs through its `extensions` hook. `portal: false` leaves the portal out:
 * every demo invoice then comes from the demo-invoices queue (the same PDFs, `seededDemoInvoice`).
 * `log` gets the line saying the first start's import is ready.
 */
export async function startDemo(
  deps: Deps,
  opts: { portal?: boolean; log?: (msg: string) => void } = {},
): Promise<DemoRun> {
  const portal = opts.portal === false ? null : await startDemoPortal(deps);
  let watch: DemoImportWatch | null = null;
  return {
    jobs: async (d) => {
      await d.jobs.work<DemoInvoiceJob>(QUEUE.demoInvoices, demoInvoiceHandler(d), 1);
      await enqueueDemoInvoices(d, { skip: portal ? [DEMO_AUTOMATION] : [] });
      watch = watchDemoImport(d, opts.log ?? (() => {}));
    },
    importState: () => watch?.state() ?? 'importing',
    close: async () => {
      watch?.stop();
      await portal?.close();
    },
  };
}
