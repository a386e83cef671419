import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { clients, operators, portalCredentials } from '../db/schema/index.js';
import { markOnce } from '../lib/once.js';
import { encrypt } from '../lib/secrets.js';
import { QUEUE } from '../lib/queue.js';
import { DEMO_AUTOMATION, demoMonths, seededDemoInvoice } from './invoices.js';
import type { Deps } from '../types.js';
import { startSimulatedPortal, type SimulatedPortal } from './simulated-portal.js';
import type { FetchInvoicesJob } from '../modules/automation/automation.service.js';

/**
 * Demo mode only: a SIMULATED operator portal on loopback for the demo client on automated upload
 * (Saimaan Logistiikka, DNA). Its 12 months of invoices are made by the generator on download, as
 * Finvoice e-invoices. On
 * every start the portal gets a new port and password, and the client's stored credentials follow;
 * on the first start the client is switched to automated upload and the 12 months are fetched as
 * jobs (so that the Full Automation report has a run at once).
 */
export async function startDemoPortal(deps: Deps): Promise<SimulatedPortal | null> {
  if (!deps.config.DEMO_DATA) return null;
  const { db } = deps.database;
  const [client] = await db
    .select({ id: clients.id, companyName: clients.companyName, businessId: clients.businessId })
    .from(clients)
    .where(eq(clients.businessId, DEMO_AUTOMATION.businessId));
  const [operator] = await db
    .select({ id: operators.id })
    .from(operators)
    .where(eq(operators.name, DEMO_AUTOMATION.operator));
  if (!client || !operator) return null;
  const password = crypto.randomBytes(18).toString('base64url');
  const months = demoMonths(deps.now());
  const portal = await startSimulatedPortal([
    {
      username: DEMO_AUTOMATION.username,
      password,
      invoices: months.map(({ invoiceDate, index }) => ({
        id: invoiceDate,
        invoiceNumber: invoiceDate,
        month: invoiceDate.slice(0, 7),
        fileName: `dna-${invoiceDate.slice(0, 7)}.xml`,
        format: DEMO_AUTOMATION.format,
        // The invoice the demo-invoices job would upload (cost-center codes and all), as an e-invoice.
        file: () =>
          seededDemoInvoice(
            { name: client.companyName, businessId: DEMO_AUTOMATION.businessId },
            {
              operator: DEMO_AUTOMATION.operator,
              seed: DEMO_AUTOMATION.seed,
              subscriptions: DEMO_AUTOMATION.base + index,
              invoiceDate,
            },
            DEMO_AUTOMATION.format,
          ),
      })),
    },
  ]);
  const sealed = encrypt(deps.encryptionKey, password);
  const [existing] = await db
    .select({ username: portalCredentials.username })
    .from(portalCredentials)
    .where(and(eq(portalCredentials.clientId, client.id), eq(portalCredentials.operatorId, operator.id)));
  if (!existing || existing.username === DEMO_AUTOMATION.username) {
    await db
      .insert(portalCredentials)
      .values({
        clientId: client.id,
        operatorId: operator.id,
        portalUrl: portal.url,
        username: DEMO_AUTOMATION.username,
        passwordSealed: sealed,
      })
      .onConflictDoUpdate({
        target: [portalCredentials.clientId, portalCredentials.operatorId],
        set: { portalUrl: portal.url, passwordSealed: sealed, updatedAt: deps.now() },
      });
  }
  if (await markOnce(db, 'demo-automation', { startedAt: deps.now().toISOString() })) {
    await db.update(clients).set({ invoiceUploadMethod: 'automation' }).where(eq(clients.id, client.id));
    for (const { invoiceDate } of months) {
      await deps.jobs.send(QUEUE.fetchInvoices, {
        clientId: client.id,
        operatorId: operator.id,
        month: invoiceDate.slice(0, 7),
      } satisfies FetchInvoicesJob);
    }
  }
  return portal;
}
