import { and, eq } from 'drizzle-orm';
import { files, invoices } from '../../db/schema/index.js';
import { logActivity } from '../../lib/activity-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { Scope } from '../../lib/scope.js';
import type { Deps } from '../../types.js';
import { queueParse } from './invoices.service.js';

/** The code of the one refusal a company admin may overrule (import.service.ts `checkBuyer`). */
export const CONFIRMABLE_CODE = 'invoiceBuyerUnknown';

/**
 * A company admin (or the provider: `invoices.delete`, the permission that decides a failed
 * invoice's fate) confirms that an invoice refused as `invoiceBuyerUnknown` — a PDF printing no
 * business id and another buyer's name — is the company's all the same: who and when are kept on
 * the invoice, it is read again, and its import skips the name check (issue 37, item 11). Only
 * that refusal can be confirmed (409 `invoiceBuyerNotConfirmable`); a business id printed for
 * another company is never overruled. Another client's invoice answers 404. Logged.
 */
export async function confirmInvoiceBuyer(
  deps: Deps,
  scope: Scope,
  id: number,
  userId: number,
): Promise<void> {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    const [head] = await tx
      .select({
        clientId: invoices.clientId,
        state: invoices.uploadState,
        errorCode: invoices.errorCode,
        fileSize: files.size,
        fileName: invoices.fileName,
        buyerName: invoices.customerName,
      })
      .from(invoices)
      .innerJoin(files, eq(files.id, invoices.fileId))
      .where(
        and(
          eq(invoices.id, id),
          scope.where({ clientId: invoices.clientId, subCompanyId: invoices.subCompanyId }),
        ),
      )
      .for('update', { of: invoices });
    if (!head) throw notFound();
    if (head.state !== 'failed' || head.errorCode !== CONFIRMABLE_CODE) {
      throw new AppError(409, 'invoiceBuyerNotConfirmable');
    }
    // The file of a failed invoice is removed after some days: then there is nothing to read.
    if (!head.fileSize) throw new AppError(409, 'invoiceFileRemoved');
    await tx
      .update(invoices)
      .set({
        buyerConfirmedBy: userId,
        buyerConfirmedAt: deps.now(),
        uploadState: 'in_progress',
        parsingStatus: 'pending',
        errorCode: null,
        errorMessage: null,
        parsedAt: null,
      })
      .where(eq(invoices.id, id));
    await logActivity(tx, {
      userId,
      clientId: head.clientId,
      area: 'invoices',
      action: 'confirm_buyer',
      entity: 'invoice',
      entityId: id,
      before: { fileName: head.fileName, buyerName: head.buyerName },
    });
  });
  try {
    await queueParse(deps, id);
  } catch {
    // The row is committed in progress: the start-up sweep re-enqueues in-progress invoices.
    console.error(`confirm-buyer: the parse job of invoice ${id} could not be queued`);
  }
}
