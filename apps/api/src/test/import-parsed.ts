// Test helper (imported by tests only): an invoice imported straight through the import, as the
// parse job does after a parse, without a file to parse.
import type { InvoiceLine, InvoiceSubscription, ParsedInvoice } from '@kulu/invoices';
import { files, invoices } from '../db/schema/index.js';
import { importParsedInvoice } from '../modules/invoices/import.service.js';
import { BUYER, type TestApp } from './helpers.js';

let invoiceNo = 0;

/**
 * An invoice row over a stored one-byte file named as the invoice (the rows an upload leaves before
 * its parse): its id.
 */
export async function insertInvoice(
  t: Pick<TestApp, 'deps'>,
  values: Omit<typeof invoices.$inferInsert, 'fileId'>,
): Promise<number> {
  const { db } = t.deps.database;
  const [file] = await db
    .insert(files)
    .values({
      clientId: values.clientId,
      kind: 'invoice',
      name: values.fileName,
      mime: 'application/pdf',
      size: 1,
      data: Buffer.from('x'),
    })
    .returning({ id: files.id });
  const [head] = await db
    .insert(invoices)
    .values({ ...values, fileId: file!.id })
    .returning({ id: invoices.id });
  return head!.id;
}

/** A monthly fee line of the invoice. */
export const feeLine = (label: string, amount: number): InvoiceLine => ({
  label,
  category: 'monthly_fee',
  region: null,
  periodStart: null,
  periodEnd: null,
  count: 1,
  quantity: null,
  unit: null,
  unitPrice: null,
  amount,
});

/** A domestic data line of `mb` megabytes costing `amount` (at `unitPrice` a megabyte, when given). */
export const dataLine = (mb: number, amount = 0, unitPrice: number | null = null): InvoiceLine => ({
  label: 'Testi data',
  category: 'data',
  region: 'domestic',
  periodStart: null,
  periodEnd: null,
  count: null,
  quantity: mb,
  unit: 'mb',
  unitPrice,
  amount,
});

/**
 * Stores a file and an invoice row of the demo company Pohjola for `subCompanyId`, then imports
 * `subscriptions` as the operator "Testi"'s invoice of `month` (YYYY-MM); fails unless imported.
 * Returns the invoice's id.
 */
export async function importParsed(
  t: Pick<TestApp, 'deps'>,
  opts: {
    clientId: number;
    subCompanyId: number;
    month: string;
    subscriptions: InvoiceSubscription[];
    otherLines?: InvoiceLine[];
    now?: Date;
  },
): Promise<number> {
  const { db } = t.deps.database;
  const n = ++invoiceNo;
  const invoiceId = await insertInvoice(t, {
    clientId: opts.clientId,
    subCompanyId: opts.subCompanyId,
    fileName: `i${n}.pdf`,
    fileSha256: `import-parsed-${n}-${Date.now()}`,
    batchId: `import-parsed-${n}`,
  });
  const otherLines = opts.otherLines ?? [];
  // The stated totals are the subscriptions' (the import keeps them as printed; it does not reconcile).
  const total = opts.subscriptions.reduce((a, s) => a + s.total, 0);
  const parsed: ParsedInvoice = {
    operator: 'Testi',
    invoiceNumber: `I-${n}`,
    invoiceDate: `${opts.month}-15`,
    dueDate: `${opts.month}-28`,
    customerNumber: '1',
    customerName: 'Pohjola',
    businessId: BUYER.pohjola.businessId,
    referenceNumber: '1',
    currency: 'EUR',
    vatRate: 25.5,
    totalExclVat: total,
    vatAmount: 0,
    totalInclVat: total,
    subscriptions: opts.subscriptions,
    otherLines,
  };
  const done = await importParsedInvoice(db, invoiceId, parsed, opts.now ?? new Date());
  if (!done.imported) throw new Error(`invoice of ${opts.month} not imported: ${JSON.stringify(done)}`);
  return invoiceId;
}
