/**
 * The follow-up worker thread (started by lib/follow-up.ts; never imported by the API's main thread): a
 * client's optimization and an invoice's alert rules, on connections of its own to the API's
 * PostgreSQL database, so that their reading, computing and writing never hold the API's event loop.
 * Messages: in `{ id, task }` or `{ stop: true }`; out `{ ready: true }` once connected, then
 * `{ id, ok: true, value }` | `{ id, ok: false, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/client.js';
import { optimizeClient } from '../modules/optimization/optimize.service.js';
import { evaluateInvoiceAlerts } from '../modules/alerts/evaluate.service.js';
import type { FollowUpReply, FollowUpTask } from '../lib/follow-up.js';

const port = parentPort!;
const send = (m: FollowUpReply) => port.postMessage(m);
const database = await openDatabase({ url: (workerData as { url: string }).url });

async function runTask(task: FollowUpTask): Promise<unknown> {
  if (task.kind === 'optimize') {
    const now = new Date(task.now);
    return optimizeClient({ database, now: () => now }, task.clientId, task.runIds);
  }
  return evaluateInvoiceAlerts(database.db, task.invoiceId);
}

port.on('message', (m: { id: number; task: FollowUpTask } | { stop: true }) => {
  if ('stop' in m) {
    void database.close().finally(() => process.exit(0));
    return;
  }
  runTask(m.task).then(
    (value) => send({ id: m.id, ok: true, value }),
    (e: unknown) => send({ id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
});
send({ ready: true });
