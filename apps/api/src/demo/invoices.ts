import { and, eq } from 'drizzle-orm';
import { clientOperators, clients, operators } from '../db/schema/index.js';
import { markOnce } from '../lib/once.js';
import { uploadInvoices } from '../modules/invoices/invoices.service.js';
import { QUEUE, type JobHandler } from '../lib/queue.js';
import type { Deps } from '../types.js';
import { DEMO_COMPANY, demoInvoiceModel, demoRoster, type DemoOperatorPlan } from './company.js';
import { demoClientRows } from './data.js';

const DEMO_INVOICES_KEY = 'demo-invoices';
export const DEMO_MONTHS = 12;

/**
 * Per demo client and operator whose invoices the generator draws from a seed alone: the seed, the
 * subscriptions of the first month and whether the invoices print cost-center codes. The first demo
 * client is a company of its own (company.ts).
 *
 * Saimaan Logistiikka's DNA invoices print the codes 2001 and 4100 (`Kustannuspaikka 2001`) on most
 * subscriptions (seed 4201 draws those two); the import finds the client's cost centers named by the
 * code ("2001 Kuljetus", "4100 Varasto", data.ts) and puts each subscription in its sub-company.
 */
const PLAN: Record<string, Record<string, { seed: number; base: number; costCenters: boolean }>> = {
  '0737546-2': { DNA: { seed: 4201, base: 24, costCenters: true } },
};

/** The demo company's plan for one client and operator, if it is one (company.ts). */
function companyPlan(businessId: string, operator: string): DemoOperatorPlan | undefined {
  return DEMO_COMPANY.find((c) => c.businessId === businessId && c.operator === operator);
}

/** Every demo client and operator with its seed and the subscriptions on the invoice of a month. */
function demoOperators(businessId: string): Array<{
  operator: string;
  seed: number;
  subscriptionsIn(month: number): number;
}> {
  const company = DEMO_COMPANY.filter((c) => c.businessId === businessId).map((c) => ({
    operator: c.operator,
    seed: c.seed,
    subscriptionsIn: (month: number) =>
      demoRoster(c, DEMO_MONTHS).filter((s) => s.firstMonth <= month).length,
  }));
  const seeded = Object.entries(PLAN[businessId] ?? {}).map(([operator, { seed, base }]) => ({
    operator,
    seed,
    subscriptionsIn: (month: number) => base + month,
  }));
  return [...company, ...seeded];
}

/**
 * The demo client on automated upload: when the server runs the demo portal
 * (portal.ts), its DNA invoices come from there instead, as Finvoice e-invoices (as DNA sends
 * them to business customers), so the e-invoice path runs on first start.
 */
export const DEMO_AUTOMATION = {
  businessId: '0737546-2',
  operator: 'DNA',
  username: 'demo-saimaa-dna',
  format: 'finvoice' as const,
  ...PLAN['0737546-2'].DNA,
};

/**
 * The demo's missing month (docs/demo.md, "Alerts by design"): Saimaan Logistiikka signed a Telia
 * contract that runs from the first day of the current demo month, and Telia's first invoice has not
 * arrived. The portfolio counts it under "invoices missing this month" at once, and the daily
 * *invoice missing* rule raises it from day 20. No invoice is drawn for it, so no demo figure moves.
 */
export const DEMO_NEW_CONTRACT = { businessId: '0737546-2', operator: 'Telia' } as const;

async function addNewOperatorContract(deps: Deps, month: string): Promise<void> {
  const { db } = deps.database;
  const [target] = await db
    .select({ clientId: clients.id, operatorId: operators.id })
    .from(clients)
    .innerJoin(operators, eq(operators.name, DEMO_NEW_CONTRACT.operator))
    .where(eq(clients.businessId, DEMO_NEW_CONTRACT.businessId));
  if (!target) return;
  const [held] = await db
    .select({ id: clientOperators.id })
    .from(clientOperators)
    .where(
      and(eq(clientOperators.clientId, target.clientId), eq(clientOperators.operatorId, target.operatorId)),
    );
  if (held) return;
  await db
    .insert(clientOperators)
    .values({ ...target, salesContactName: 'Tuomas Koskinen', contractStartDate: month });
}

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
  /** The index of the demo month (0 = oldest); the demo company's invoices need it. */
  month?: number;
}

/**
 * The demo invoices: 12 months per demo client and operator, enqueued once (first start with
 * DEMO_DATA) as jobs, so that the server answers at once and the invoices go down the real path:
 * generate PDF → upload → parse-invoice job.
 *
 * Consistency month to month: the first demo client is a company with its own roster and monthly
 * use (company.ts). For the others the generator draws everything from one seed in order, so the same
 * seed with one more subscription each month repeats the numbers, users and cost centers of the
 * earlier months and only then differs (a new subscription, new invoice number and extra fees).
 */
export async function enqueueDemoInvoices(
  deps: Deps,
  opts: { skip?: Array<{ businessId: string; operator: string }> } = {},
): Promise<number> {
  const { db } = deps.database;
  if (!(await markOnce(db, DEMO_INVOICES_KEY, { enqueuedAt: deps.now().toISOString() }))) return 0;
  const demo = await demoClientRows(deps);
  const months = demoMonths(deps.now());
  await addNewOperatorContract(deps, `${months.at(-1)!.invoiceDate.slice(0, 7)}-01`);
  let n = 0;
  for (const { businessId } of demo) {
    for (const { operator, seed, subscriptionsIn } of demoOperators(businessId)) {
      if (opts.skip?.some((x) => x.businessId === businessId && x.operator === operator)) continue;
      for (const { index, invoiceDate } of months) {
        const job: DemoInvoiceJob = {
          businessId,
          operator,
          seed,
          subscriptions: subscriptionsIn(index),
          invoiceDate,
          month: index,
        };
        await deps.jobs.send(QUEUE.demoInvoices, job);
        n++;
      }
    }
  }
  return n;
}

/**
 * The generator's options for one month's invoice of a demo client and operator drawn from a seed
 * (PLAN): roaming outside the EU only on a rare trip and use abroad in a Finnish company's
 * proportions (`abroad: 'business'`; the mix is tested in mix.test.ts).
 */
export async function seededDemoOptions(
  buyer: { name: string; businessId: string },
  invoice: { operator: string; seed: number; subscriptions: number; invoiceDate: string },
) {
  const { TRIP_OUTSIDE_EU_SHARE } = await import('@kulu/invoices/generator');
  return {
    operator: invoice.operator.toLowerCase(),
    seed: invoice.seed,
    subscriptions: invoice.subscriptions,
    invoiceDate: invoice.invoiceDate,
    costCenters: PLAN[buyer.businessId]?.[invoice.operator]?.costCenters,
    // Roaming outside the EU only on a rare trip, not on a third of the phones every month.
    tripsOutsideEu: TRIP_OUTSIDE_EU_SHARE,
    // Use abroad in a Finnish company's proportions (docs/demo.md), not half of its data abroad.
    abroad: 'business' as const,
    buyer,
  };
}

/**
 * One month's invoice of a demo client and operator drawn from a seed (PLAN): the same invoice
 * whether the demo-invoices job uploads it or the simulated portal serves it (portal.ts), as a PDF
 * or as the Finvoice e-invoice the operator sends business customers.
 */
export async function seededDemoInvoice(
  buyer: { name: string; businessId: string },
  invoice: { operator: string; seed: number; subscriptions: number; invoiceDate: string },
  format: 'pdf' | 'finvoice' = 'pdf',
): Promise<Uint8Array> {
  const { generateInvoice, generateFinvoice } = await import('@kulu/invoices/generator');
  const options = await seededDemoOptions(buyer, invoice);
  if (format === 'finvoice') return (await generateFinvoice(options)).xml;
  return (await generateInvoice({ ...options, pageSize: 'A4', font: 'Helvetica' })).pdf;
}

/** demo-invoices: generates one invoice PDF and uploads it like a person would (source "demo"). */
export function demoInvoiceHandler(deps: Deps): JobHandler<DemoInvoiceJob> {
  return async (job) => {
    const { businessId, operator, seed, subscriptions, invoiceDate, month } = job.data;
    const [client] = await deps.database.db
      .select({ id: clients.id, companyName: clients.companyName, address: clients.address })
      .from(clients)
      .where(eq(clients.businessId, businessId));
    if (!client) return;
    const { generateInvoiceFromModel } = await import('@kulu/invoices/generator');
    const print = { operator: operator.toLowerCase(), seed, pageSize: 'A4' as const, font: 'Helvetica' };
    const company = companyPlan(businessId, operator);
    const pdf =
      company && month !== undefined
        ? await generateInvoiceFromModel(
            demoInvoiceModel(
              company,
              { name: client.companyName, address: (client.address ?? '').split(/,\s*/) },
              DEMO_MONTHS,
              month,
              invoiceDate,
            ),
            print,
          ).then((g) => g.pdf)
        : await seededDemoInvoice(
            { name: client.companyName, businessId },
            { operator, seed, subscriptions, invoiceDate },
          );
    await uploadInvoices(
      deps,
      { clientId: client.id, subCompanyId: null },
      [{ fileName: `${operator.toLowerCase()}-${invoiceDate.slice(0, 7)}.pdf`, data: Buffer.from(pdf) }],
      { userId: null, lang: 'en', source: 'demo' },
    );
  };
}
