import { eq, inArray } from 'drizzle-orm';
import { clients, settings } from '../db/schema/index.js';
import { uploadInvoices } from '../modules/invoices/invoices.service.js';
import { QUEUE, type JobHandler } from '../jobs/queue.js';
import type { Deps } from '../types.js';
import { DEMO_CLIENTS } from './data.js';

const DEMO_INVOICES_KEY = 'demo-invoices';
export const DEMO_MONTHS = 12;

/** Per demo client and operator: the generator seed and the subscriptions of the first month. */
const PLAN: Record<string, Record<string, { seed: number; base: number }>> = {
  '2345678-0': { Elisa: { seed: 4101, base: 18 }, Telia: { seed: 4102, base: 14 } },
  '0737546-2': { DNA: { seed: 4201, base: 24 } },
};

/**
 * The demo client on automated upload: when the server runs the demo portal
 * (portal.ts), its DNA invoices come from there instead.
 */
export const DEMO_AUTOMATION = {
  businessId: '0737546-2',
  operator: 'DNA',
  username: 'demo-saimaa-dna',
  ...PLAN['0737546-2'].DNA,
};

/** The demo's billing months, oldest first, with the invoice date (the 5th, or today if earlier). */
export function demoMonths(today: Date): Array<{ index: number; invoiceDate: string }> {
  const day = String(Math.min(5, today.getUTCDate())).padStart(2, '0');
  return Array.from({ length: DEMO_MONTHS }, (_, index) => {
    const d = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - (DEMO_MONTHS - 1 - index), 1));
    return { index, invoiceDate: `${d.toISOString().slice(0, 7)}-${day}` };
  });
}

export interface DemoInvoiceJob {
  businessId: string;
  operator: string;
  seed: number;
  subscriptions: number;
  invoiceDate: string;
}

/**
 * The demo invoices: 12 months per demo client and operator, enqueued once (first start with
 * DEMO_DATA) as jobs, so that the server answers at once and the invoices go down the real path:
 * generate PDF → upload → parse-invoice job.
 *
 * Consistency month to month: the generator draws everything from one seed in order, so the same
 * seed with one more subscription each month repeats the numbers, users and cost centers of the
 * earlier months and only then differs (a new subscription, new invoice number and extra fees).
 */
export async function enqueueDemoInvoices(
  deps: Deps,
  opts: { skip?: Array<{ businessId: string; operator: string }> } = {},
): Promise<number> {
  const { db } = deps.database;
  const marked = await db
    .insert(settings)
    .values({ key: DEMO_INVOICES_KEY, value: { enqueuedAt: deps.now().toISOString() } })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  if (!marked.length) return 0;
  const demo = await db
    .select({ businessId: clients.businessId })
    .from(clients)
    .where(
      inArray(
        clients.businessId,
        DEMO_CLIENTS.map((d) => d.businessId),
      ),
    );
  const months = demoMonths(deps.now());
  let n = 0;
  for (const { businessId } of demo) {
    for (const [operator, { seed, base }] of Object.entries(PLAN[businessId] ?? {})) {
      if (opts.skip?.some((x) => x.businessId === businessId && x.operator === operator)) continue;
      for (const { index, invoiceDate } of months) {
        const job: DemoInvoiceJob = { businessId, operator, seed, subscriptions: base + index, invoiceDate };
        await deps.jobs.send(QUEUE.demoInvoices, job);
        n++;
      }
    }
  }
  return n;
}

/** demo-invoices: generates one invoice PDF and uploads it like a person would (source "demo"). */
export function demoInvoiceHandler(deps: Deps): JobHandler<DemoInvoiceJob> {
  return async (job) => {
    const { businessId, operator, seed, subscriptions, invoiceDate } = job.data;
    const [client] = await deps.database.db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.businessId, businessId));
    if (!client) return;
    const { generateInvoice } = await import('@kulu/invoices/generator');
    const { pdf } = await generateInvoice({
      operator: operator.toLowerCase(),
      seed,
      subscriptions,
      invoiceDate,
      pageSize: 'A4',
      font: 'Helvetica',
    });
    await uploadInvoices(
      deps,
      { clientId: client.id, subCompanyId: null },
      [{ fileName: `${operator.toLowerCase()}-${invoiceDate.slice(0, 7)}.pdf`, data: Buffer.from(pdf) }],
      { userId: null, lang: 'en', source: 'demo' },
    );
  };
}
