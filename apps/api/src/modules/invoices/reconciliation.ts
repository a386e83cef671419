import { and, asc, count, eq, sql, type SQL } from 'drizzle-orm';
import type { InvoiceDifference, VatBreakdown } from '@kulu/invoices';
import {
  RECONCILIATION_TOLERANCE,
  UNCONVERTED_LINES_SHOWN,
  type InvoiceReconciliation,
  type UnconvertedLine,
} from '@kulu/shared';
import { invoiceLines, invoices, subscriptions } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import { euros, toCents } from '../dashboards/money.js';

/**
 * An invoice reconciled to the cent, visibly (issue 38): its stated figures beside those computed
 * from its lines, VAT per rate, and every difference its own figures show, never absorbed. The
 * readers find the differences (packages/invoices: `ParsedInvoice.differences`); the import keeps
 * them with the VAT breakdown and the lines' sums as read; this reads them back for the API.
 */

const TOLERANCE_CENTS = Math.round(RECONCILIATION_TOLERANCE * 100);

/** Rounds half away from zero (as money is rounded on an invoice). */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/** A rate's VAT computed from its base: base × rate, to the cent (rate in percent, two decimals). */
export const vatOfCents = (baseCents: number, rate: number) =>
  roundHalfAway((baseCents * Math.round(rate * 100)) / 10_000);

/** The differences above one cent (a reader's list kept whole otherwise). */
export const unexplained = (differences: readonly InvoiceDifference[] | null | undefined) =>
  (differences ?? []).filter((d) => Math.abs(toCents(String(d.difference))) > TOLERANCE_CENTS);

/**
 * The list's and the dashboard's figure of a read invoice: the largest of its differences by size,
 * signed, as euros ("0.00": reconciled to the cent).
 */
export const largestDifference = (differences: readonly InvoiceDifference[] | null | undefined): string => {
  let largest = 0;
  for (const d of differences ?? []) {
    const c = toCents(String(d.difference));
    if (Math.abs(c) > Math.abs(largest)) largest = c;
  }
  return euros(largest);
};

/** A percent as the API writes rates ("25.50"). */
const percent = (rate: number) => rate.toFixed(2);

/** What the import stores of a read invoice's reconciliation (its columns), from the figures as read. */
export function reconciliationColumns(parsed: {
  vatRate: number;
  totalExclVat: number;
  vatAmount: number;
  vatBreakdown?: VatBreakdown[];
  differences?: InvoiceDifference[];
  subscriptions: ReadonlyArray<{ lines: ReadonlyArray<{ amount: number }> }>;
  otherLines: ReadonlyArray<{ amount: number }>;
}) {
  const sum = (lines: ReadonlyArray<{ amount: number }>) =>
    lines.reduce((a, l) => a + toCents(String(l.amount)), 0);
  const breakdown = parsed.vatBreakdown?.length
    ? parsed.vatBreakdown
    : [{ rate: parsed.vatRate, base: parsed.totalExclVat, vat: parsed.vatAmount }];
  const differences = unexplained(parsed.differences);
  return {
    vatBreakdown: breakdown,
    differences,
    difference: largestDifference(differences),
    subscriptionsTotal: euros(parsed.subscriptions.reduce((a, s) => a + sum(s.lines), 0)),
    otherLinesTotal: euros(sum(parsed.otherLines)),
  };
}

/**
 * The reconciliation of a read invoice (null before it is read): the sums as read, VAT per rate
 * (stated, and base × rate), the stated total incl. VAT beside excl. + VAT, the differences.
 */
export async function invoiceReconciliation(db: Db, id: number): Promise<InvoiceReconciliation | null> {
  const [row] = await db
    .select({
      state: invoices.uploadState,
      vatBreakdown: invoices.vatBreakdown,
      differences: invoices.differences,
      subscriptionsTotal: invoices.subscriptionsTotal,
      otherLinesTotal: invoices.otherLinesTotal,
      totalExclVat: invoices.totalExclVat,
      vatAmount: invoices.vatAmount,
      totalInclVat: invoices.totalInclVat,
    })
    .from(invoices)
    .where(eq(invoices.id, id));
  if (!row || row.state !== 'uploaded' || row.totalExclVat == null) return null;
  const subscriptionsCents = toCents(row.subscriptionsTotal);
  const otherCents = toCents(row.otherLinesTotal);
  const differences = unexplained(row.differences);
  return {
    subscriptionsTotal: euros(subscriptionsCents),
    otherLinesTotal: euros(otherCents),
    computedExclVat: euros(subscriptionsCents + otherCents),
    statedExclVat: euros(toCents(row.totalExclVat)),
    vatRates: (row.vatBreakdown ?? []).map((b) => {
      const base = toCents(String(b.base));
      return {
        rate: percent(b.rate),
        base: euros(base),
        statedVat: euros(toCents(String(b.vat))),
        computedVat: euros(vatOfCents(base, b.rate)),
      };
    }),
    statedVat: euros(toCents(row.vatAmount)),
    computedInclVat: euros(toCents(row.totalExclVat) + toCents(row.vatAmount)),
    statedInclVat: euros(toCents(row.totalInclVat)),
    differences: differences.map((d) => ({
      where: d.where,
      rate: d.rate == null ? null : percent(d.rate),
      stated: euros(toCents(String(d.stated))),
      computed: euros(toCents(String(d.computed))),
      difference: euros(toCents(String(d.difference))),
    })),
    reconciled: differences.length === 0,
  };
}

/**
 * The invoice's lines in units Kulu does not convert (unit `other`) that `visible` lets the caller
 * see, in invoice order: the first UNCONVERTED_LINES_SHOWN, and how many there are.
 */
export async function unconvertedLines(
  db: Db,
  id: number,
  visible: SQL | undefined,
): Promise<{ items: UnconvertedLine[]; total: number }> {
  const where = and(eq(invoiceLines.invoiceId, id), eq(invoiceLines.unit, 'other'), visible);
  const [[{ n }], rows] = await Promise.all([
    db
      .select({ n: count() })
      .from(invoiceLines)
      .leftJoin(subscriptions, eq(subscriptions.id, invoiceLines.subscriptionId))
      .where(where),
    db
      .select({
        label: invoiceLines.label,
        phoneNumber: subscriptions.phoneNumber,
        userName: subscriptions.userName,
        quantity: invoiceLines.quantity,
        unitCode: sql<string>`coalesce(${invoiceLines.unitCode}, '')`,
        amount: invoiceLines.amount,
      })
      .from(invoiceLines)
      .leftJoin(subscriptions, eq(subscriptions.id, invoiceLines.subscriptionId))
      .where(where)
      .orderBy(asc(invoiceLines.position))
      .limit(UNCONVERTED_LINES_SHOWN),
  ]);
  return { items: rows, total: n };
}
