import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  clients,
  costElements,
  files,
  invoiceLines,
  invoices,
  monthlyFacts,
  subscriptions,
} from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { logActivity } from '../../lib/activity-log.js';
import type { Scope } from '../../lib/scope.js';
import {
  dispatchQueuedRuns,
  lockClientOptimization,
  queueOptimization,
} from '../optimization/optimize.service.js';
import type { Deps } from '../../types.js';

/** What deleting an invoice removed (the answer and the activity log say it). */
export interface InvoiceRemoval {
  lines: number;
  facts: number;
  subscriptions: number;
  costElements: number;
}

/**
 * Deletes an invoice of the caller's scope (another client's answers 404) in ONE transaction: its
 * lines and monthly facts, the subscriptions that only it showed (one seen on another invoice stays,
 * with its marks, its months narrowed to the invoices left), the cost elements its import created
 * that nothing uses any more and nobody categorized, its stored file and the row; the activity log
 * entry and the client's re-optimization (queued in the same transaction, sent after commit). A
 * failed invoice is deleted the same way (it has no lines). One still being read cannot be deleted.
 */
export async function deleteInvoice(
  deps: Deps,
  scope: Scope,
  id: number,
  userId: number,
): Promise<InvoiceRemoval> {
  const { db } = deps.database;
  const result = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ clientId: invoices.clientId })
      .from(invoices)
      .where(
        and(
          eq(invoices.id, id),
          scope.where({ clientId: invoices.clientId, subCompanyId: invoices.subCompanyId }),
        ),
      );
    if (!found) throw notFound();
    // The optimization run's lock first (it reads and replaces results of the subscriptions this
    // may remove), then the client row as an import takes it.
    await lockClientOptimization(tx, found.clientId);
    // The client first, as an import locks it: an import and a delete of one client run one at a time.
    await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, found.clientId)).for('update');
    const [head] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
    if (!head) throw notFound();
    if (head.uploadState === 'in_progress') throw new AppError(409, 'invoiceDeleteInProgress');

    const touched = (
      await tx
        .selectDistinct({ id: invoiceLines.subscriptionId })
        .from(invoiceLines)
        .where(and(eq(invoiceLines.invoiceId, id), isNotNull(invoiceLines.subscriptionId)))
    ).map((r) => r.id!);
    const elementIds = (
      await tx
        .selectDistinct({ id: invoiceLines.costElementId })
        .from(invoiceLines)
        .where(eq(invoiceLines.invoiceId, id))
    ).map((r) => r.id);

    const facts = await tx
      .delete(monthlyFacts)
      .where(eq(monthlyFacts.invoiceId, id))
      .returning({ id: monthlyFacts.id });
    const lines = await tx
      .delete(invoiceLines)
      .where(eq(invoiceLines.invoiceId, id))
      .returning({ id: invoiceLines.id });

    // Subscriptions no other invoice shows go (their results and marks with them); the others stay.
    // (Correlated subqueries name the outer table explicitly: drizzle renders its columns bare.)
    const gone = touched.length
      ? await tx
          .delete(subscriptions)
          .where(
            and(
              inArray(subscriptions.id, touched),
              sql`not exists (select 1 from invoice_lines l where l.subscription_id = "subscriptions"."id")`,
              sql`not exists (select 1 from monthly_facts f where f.subscription_id = "subscriptions"."id")`,
            ),
          )
          .returning({ id: subscriptions.id })
      : [];
    const kept = touched.filter((s) => !gone.some((g) => g.id === s));
    if (kept.length) {
      await tx
        .update(subscriptions)
        .set({
          firstSeenMonth: sql`coalesce((select min(f.month) from monthly_facts f where f.subscription_id = "subscriptions"."id"), "subscriptions"."first_seen_month")`,
          lastSeenMonth: sql`coalesce((select max(f.month) from monthly_facts f where f.subscription_id = "subscriptions"."id"), "subscriptions"."last_seen_month")`,
        })
        .where(inArray(subscriptions.id, kept));
    }

    // Cost elements this import created (same moment) that no line uses now and nobody categorized.
    const elements =
      elementIds.length && head.parsedAt
        ? await tx
            .delete(costElements)
            .where(
              and(
                inArray(costElements.id, elementIds),
                eq(costElements.createdAt, head.parsedAt),
                inArray(costElements.status, ['uncategorized', 'auto_categorized']),
                sql`not exists (select 1 from invoice_lines l where l.cost_element_id = "cost_elements"."id")`,
                sql`not exists (select 1 from monthly_facts f where f.cost_element_id = "cost_elements"."id")`,
              ),
            )
            .returning({ id: costElements.id })
        : [];

    await tx.delete(invoices).where(eq(invoices.id, id));
    await tx
      .delete(files)
      .where(
        and(
          eq(files.id, head.fileId),
          sql`not exists (select 1 from invoices i where i.file_id = "files"."id")`,
        ),
      );

    const removed: InvoiceRemoval = {
      lines: lines.length,
      facts: facts.length,
      subscriptions: gone.length,
      costElements: elements.length,
    };
    if (head.uploadState === 'uploaded') {
      await queueOptimization(tx, head.clientId, 'invoiceDeleted', userId);
    }
    await logActivity(tx, {
      userId,
      clientId: head.clientId,
      area: 'invoices',
      action: 'delete',
      entity: 'invoice',
      entityId: id,
      before: {
        fileName: head.fileName,
        invoiceNumber: head.invoiceNumber,
        invoiceDate: head.invoiceDate,
        buyerName: head.customerName,
        buyerBusinessId: head.businessId,
        uploadState: head.uploadState,
        totalExclVat: head.totalExclVat,
        ...removed,
      },
    });
    return { removed, reoptimize: head.uploadState === 'uploaded' };
  });
  // After commit: the client's results follow the invoices it has left (a failed send stays queued
  // for the optimize sweep).
  if (result.reoptimize) {
    await dispatchQueuedRuns(deps).catch((err: unknown) =>
      console.error('optimize-client: enqueue after an invoice delete failed:', err),
    );
  }
  return result.removed;
}
